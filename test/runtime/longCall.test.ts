// The slow group: a real tool call longer than the MCP SDK's 60 s default request timeout
// completes when tool_timeout_sec allows it (the SDK default must never cap a longer timeout).
import { describe, expect, it } from 'vitest';

import { echoServer, text } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();

describe('slow: tool_timeout_sec above the SDK default', () => {
  it('lets a 61 s call finish under tool_timeout_sec = 90', { timeout: 120_000 }, async () => {
    const runtime = load(echoServer('mcp_servers.slow', 'slow', 'tool_timeout_sec = 90'));
    const session = runtime.startSession();
    await session.ready();
    const t0 = Date.now();
    const result = await session.callTool({
      server: 'slow',
      tool: 'sleep',
      arguments: { ms: 61_000 },
    });
    expect(text(result)).toBe('slept 61000');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(61_000);
  });
});
