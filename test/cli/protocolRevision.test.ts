// `mcprt status` and `mcprt mcp get` report the MCP protocol revision each registration
// negotiated (text and --json): a 2026-only server (2026-07-28) and a 2025-only one (2025-11-25)
// sharing a name in two environments, a dual-era server pinned to 2025-11-25, a disabled one.
// `mcp get` shows the `protocol_version` setting from the config without starting anything; with
// `--status` it starts that one registration and adds its live state and negotiated revision.
import { describe, expect, it } from 'vitest';

import type { Io } from '../../packages/cli/src/io.js';
import { run } from '../../packages/cli/src/main.js';
import { makeHome } from '../helpers/fixtures.js';
import { EXPECTED_REVISIONS, label, mixedRevisionsConfig } from '../helpers/revisions.js';

const HOME = makeHome(mixedRevisionsConfig());

async function mcprt(...argv: string[]) {
  let out = '';
  let err = '';
  const io: Io = {
    out: (t) => void (out += t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => void (err += t.endsWith('\n') ? t : `${t}\n`),
    isTTY: false,
  };
  const code = await run(['--home', HOME, ...argv], io);
  return { code, stdout: out, stderr: err };
}

describe('mcprt status', () => {
  it('--json: protocolVersion per registration (null when not connected)', async () => {
    const r = await mcprt('status', '--json');
    expect(r.code, r.stderr).toBe(0);
    const items = JSON.parse(r.stdout) as {
      name: string;
      environmentId: string | null;
      protocolVersion: string | null;
    }[];
    expect(
      Object.fromEntries(items.map((s) => [label(s), s.protocolVersion ?? undefined])),
    ).toEqual(EXPECTED_REVISIONS);
    expect(items.find((s) => s.name === 'off')!.protocolVersion).toBeNull();
  }, 60_000);

  it('text: the revision after each connected line', async () => {
    const r = await mcprt('status');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}• pinned: connected \(\d+ tools\) \[MCP 2025-11-25\]$/m);
    expect(r.stdout).toMatch(/^ {2}• off: disabled$/m);
    expect(r.stdout).toMatch(/^ {2}• shared@new: connected \(\d+ tools\) \[MCP 2026-07-28\]$/m);
    expect(r.stdout).toMatch(/^ {2}• shared@old: connected \(\d+ tools\) \[MCP 2025-11-25\]$/m);
  }, 60_000);
});

describe('mcprt mcp get', () => {
  it('shows the protocol_version setting without starting the server', async () => {
    const text = await mcprt('mcp', 'get', 'shared', '--environment', 'new');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('  protocol_version: auto\n');
    expect(text.stdout).not.toContain('negotiated protocol');
    const json = await mcprt('mcp', 'get', 'pinned', '--json');
    const parsed = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(parsed['protocolVersion']).toBe('2025-11-25');
    expect(parsed).not.toHaveProperty('status');
  });

  it('--status: connects that registration and shows the negotiated revision', async () => {
    const modern = await mcprt('mcp', 'get', 'shared', '--environment', 'new', '--status');
    expect(modern.code, modern.stderr).toBe(0);
    expect(modern.stdout).toContain('  protocol_version: auto\n');
    expect(modern.stdout).toContain('  status: connected\n  negotiated protocol: 2026-07-28\n');
    expect(modern.stdout).toContain('  server: shared-new ');

    const old = await mcprt('mcp', 'get', 'shared', '--environment', 'old', '--status', '--json');
    expect(old.code, old.stderr).toBe(0);
    expect(JSON.parse(old.stdout)).toMatchObject({
      name: 'shared',
      environmentId: 'old',
      protocolVersion: 'auto',
      status: { connectionStatus: 'connected', protocolVersion: '2025-11-25', error: null },
    });

    const off = await mcprt('mcp', 'get', 'off', '--status');
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('  status: disabled\n  negotiated protocol: -\n');
  }, 60_000);

  it('--status on a server that cannot start: its error, no revision', async () => {
    const home = makeHome('[mcp_servers.gone]\ncommand = "/nonexistent/mcprt-no-such-server"\n');
    let out = '';
    const io: Io = { out: (t) => void (out += `${t}\n`), err: () => {}, isTTY: false };
    const code = await run(['--home', home, 'mcp', 'get', 'gone', '--status', '--json'], io);
    expect(code).toBe(0);
    const parsed = JSON.parse(out) as { status: Record<string, unknown> };
    expect(parsed.status).toMatchObject({ connectionStatus: 'failed', protocolVersion: null });
    expect(String(parsed.status['error'])).toContain('/nonexistent/mcprt-no-such-server');
  }, 60_000);
});
