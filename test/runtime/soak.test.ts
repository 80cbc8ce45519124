// Soak (bounded: at most 4000 calls or 45 s): 10 fault servers, random crashes, hangs and
// garbage injected per call. Every answer must carry its own call's nonce and server, every
// failure must be reported as a failure, and no call may hang.
import { describe, expect, it } from 'vitest';

import { McprtError } from '@mcprt/runtime';

import { arr, FAULT_SERVER, NODE, q, text, waitFor } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();

const SERVERS = Array.from({ length: 10 }, (_, i) => `s${i}`);
const MAX_CALLS = 4000;
const MAX_MS = 45_000;
const CONCURRENCY = 16;
const CALL_DEADLINE_MS = 8_000; // tool timeout 1 s + restart wait 3 s + slack

/** Deterministic pseudo-random numbers (a seam we own), so a failure can be replayed. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

describe('soak: random faults across 10 servers', () => {
  it(
    'never mixes up results, reports every failure, and never hangs',
    { timeout: 120_000 },
    async () => {
      const toml = SERVERS.map(
        (name) =>
          `[mcp_servers.${name}]\ncommand = ${q(NODE)}\nargs = ${arr([FAULT_SERVER, '--name', name])}\n` +
          `tool_timeout_sec = 1\nrestart_max_attempts = 1000\nrestart_backoff_sec = 0.05\nrestart_wait_sec = 3\n`,
      ).join('');
      const runtime = load(toml);
      const session = runtime.startSession();
      await session.ready();

      const random = rng(Number(process.env['MCPRT_SOAK_SEED'] ?? 20261129));
      const started = Date.now();
      let next = 0;
      const outcome = {
        ok: 0,
        failed: 0,
        mismatched: [] as string[],
        hung: [] as string[],
        unexpected: [] as string[],
      };

      async function worker(): Promise<void> {
        while (next < MAX_CALLS && Date.now() - started < MAX_MS) {
          const n = next++;
          const server = SERVERS[Math.floor(random() * SERVERS.length)]!;
          const roll = random();
          const fault =
            roll < 0.01 ? 'crash' : roll < 0.03 ? 'hang' : roll < 0.06 ? 'garbage' : 'none';
          const nonce = `${n}-${Math.floor(random() * 1e9)}`;
          let timer: NodeJS.Timeout | undefined;
          const deadline = new Promise<'hung'>(
            (resolve) => (timer = setTimeout(() => resolve('hung'), CALL_DEADLINE_MS)),
          );
          const call = session.callTool({ server, tool: 'act', arguments: { nonce, fault } }).then(
            (r) => ({ r }),
            (e: unknown) => ({ e }),
          );
          const res = await Promise.race([call, deadline]);
          clearTimeout(timer);
          if (res === 'hung') {
            outcome.hung.push(`${server} ${fault} ${nonce}`);
          } else if ('e' in res) {
            outcome.failed += 1;
            if (!(res.e instanceof McprtError)) outcome.unexpected.push(String(res.e));
          } else {
            const body = JSON.parse(text(res.r)) as { nonce: string; server: string };
            if (body.nonce !== nonce || body.server !== server)
              outcome.mismatched.push(`${server}/${nonce} got ${JSON.stringify(body)}`);
            else outcome.ok += 1;
            if (fault === 'crash' || fault === 'hang')
              outcome.unexpected.push(`${fault} call succeeded: ${nonce}`);
          }
        }
      }
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));

      const total = outcome.ok + outcome.failed + outcome.hung.length + outcome.mismatched.length;
      expect(total).toBeGreaterThan(500);
      expect(outcome.mismatched).toEqual([]);
      expect(outcome.hung).toEqual([]);
      expect(outcome.unexpected).toEqual([]);
      expect(outcome.ok / total).toBeGreaterThan(0.7);
      expect(outcome.failed).toBeGreaterThan(0);
      // Everything comes back afterwards.
      await waitFor(
        () => session.listStatus().every((s) => s.connectionStatus === 'connected') || undefined,
        20_000,
        'all servers connected after the soak',
      );
      const restarts = session.listStatus().reduce((sum, s) => sum + s.restartCount, 0);
      expect(restarts).toBeGreaterThan(0);
    },
  );
});
