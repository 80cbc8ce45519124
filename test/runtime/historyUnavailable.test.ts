// A tool call that fails before reaching its server — the registration is restarting past
// `restart_wait_sec`, or its restart failed for good — is recorded in the history (one start and
// one finish record: `failed`, the error text, its server and environment, the time it waited,
// arguments redacted, view and caller), and the restarting registration's tools stay in the
// session's inventory meanwhile. A name no registration has is not recorded. Real processes:
// test/fixtures/servers/fault-server.mjs, in the local environment and in an exec environment.
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { Session } from '@mcprt/runtime';
import { ServerUnavailableError, UnknownServerError } from '@mcprt/runtime';

import {
  arr,
  FAULT_SERVER,
  NODE,
  q,
  shExecEnvironment,
  tempDir,
  waitFor,
} from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();

function fault(table: string, name: string, extra: string): string {
  return `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr([FAULT_SERVER, '--name', name])}\n${extra}\n`;
}

/** A fault server whose every start after the first exits during initialize. */
function startsOnce(table: string, name: string, extra: string): string {
  const marker = join(tempDir('mcprt-once-'), 'started');
  const script =
    'if [ -e "$1" ]; then exec "$2" "$3" --name "$4" --exit-during-init; fi; : > "$1"; exec "$2" "$3" --name "$4"';
  return `[${table}]\ncommand = "sh"\nargs = ${arr(['-c', script, 'sh', marker, NODE, FAULT_SERVER, name])}\n${extra}\n`;
}

async function crash(session: Session, server: string, environmentId: string | null) {
  await session
    .callTool({ server, environmentId, tool: 'act', arguments: { fault: 'crash' } })
    .catch(() => undefined);
  await waitFor(
    () => session.status(server, environmentId).restarting || undefined,
    5000,
    `${server} restarting`,
  );
}

const hasTools = (session: Session, server: string) =>
  session.tools().some((t) => t.scope.name === server);

describe('history of calls that never reached their server', () => {
  it('records a call that waited on a restart in vain, and keeps the tools listed meanwhile', async () => {
    const cwd = tempDir('mcprt-hu-cwd-');
    const runtime = load(
      fault('mcp_servers.slow', 'slow', 'restart_backoff_sec = 30\nrestart_wait_sec = 0.4') +
        shExecEnvironment('a', cwd) +
        startsOnce(
          'environments.a.mcp_servers.doomed',
          'doomed',
          'restart_max_attempts = 1\nrestart_backoff_sec = 0.3\nrestart_wait_sec = 10',
        ) +
        '[history]\nredact_keys = ["pin"]\n',
    );
    const session = runtime.startSession({
      threadId: 'thread-unavailable',
      environments: [{ environmentId: 'a', cwd }],
    });
    await session.ready();
    const caller = { subject: 'alice', clientId: 'ci' };

    // Restarting for 30 s, waited for 0.4 s: the tools stay listed, the call fails and is recorded.
    await crash(session, 'slow', null);
    expect(hasTools(session, 'slow')).toBe(true);
    const slow = await session
      .callTool({
        server: 'slow',
        tool: 'echo',
        arguments: { nonce: 'slow-1', pin: '1234' },
        view: 'triage',
        caller,
      })
      .catch((e: unknown) => e as Error);
    expect(slow).toBeInstanceOf(ServerUnavailableError);
    expect((slow as Error).message).toMatch(
      /^MCP server `slow` is not available: it is restarting: MCP server `slow` stopped: server process exited with code 4; restarting \(attempt 1 of 5\) in \d+ ms$/,
    );
    expect(hasTools(session, 'slow')).toBe(true);

    // doomed@a's restart fails for good while the call waits: recorded with its environment.
    await crash(session, 'doomed', 'a');
    const doomed = await session
      .callTool({ server: 'doomed', environmentId: 'a', tool: 'echo', arguments: { nonce: 'd-1' } })
      .catch((e: unknown) => e as Error);
    expect((doomed as Error).message).toMatch(
      /^MCP server `doomed@a` is not available: MCP client for `doomed@a` failed to start: server process exited with code 2 during initialize.*\(gave up after 1 restart\)$/,
    );
    expect(session.status('doomed', 'a').connectionStatus).toBe('failed');
    expect(hasTools(session, 'doomed')).toBe(false);

    // No registration of that name: not recorded.
    await expect(session.callTool({ server: 'nosuch', tool: 'echo' })).rejects.toThrow(
      UnknownServerError,
    );

    const records = runtime.history!.list({ threadId: 'thread-unavailable' }).data;
    const byNonce = (nonce: string) =>
      records.filter((r) => (r.arguments as { nonce?: string } | null)?.nonce === nonce);
    expect(byNonce('slow-1')).toHaveLength(1);
    const [slowRecord] = byNonce('slow-1');
    expect(slowRecord).toMatchObject({
      server: 'slow',
      environmentId: null,
      tool: 'echo',
      arguments: { nonce: 'slow-1', pin: '[REDACTED]' },
      status: 'failed',
      result: null,
      error: (slow as Error).message,
      view: 'triage',
      caller,
    });
    expect(slowRecord!.durationMs).toBeGreaterThanOrEqual(350);
    expect(slowRecord!.durationMs).toBeLessThan(5000);
    expect(byNonce('d-1')).toHaveLength(1);
    expect(byNonce('d-1')[0]).toMatchObject({
      server: 'doomed',
      environmentId: 'a',
      status: 'failed',
      error: (doomed as Error).message,
      view: null,
    });
    expect(records.some((r) => r.server === 'nosuch')).toBe(false);
    // Each crash call was recorded as any call is (it reached its server): 2 + the 2 above.
    expect(records).toHaveLength(4);
  });
});
