// Writes the homes the bench runs against: an mcprt home and a CODEX_HOME holding the same N stdio
// servers (`s0`…`s<N-1>`, each `node <fixture>`), in the shared `[mcp_servers]` syntax. The Codex
// home also names an unreachable dummy model provider, so its start-up prewarm fails locally
// instead of reaching for the network (MCP calls need no model). `history: false` turns mcprt's
// tool-call history off (the bench's diagnostic variants).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { BENCH_DIR } from './paths.mjs';

export const FIXTURES = {
  raw: join(BENCH_DIR, 'fixtures', 'raw-echo.mjs'),
  sdk: join(BENCH_DIR, 'fixtures', 'sdk-echo.mjs'),
};

export const serverNames = (n) => Array.from({ length: n }, (_, i) => `s${i}`);

/**
 * The command line of fixture server `fixture` (`raw` | `sdk`). `era: "2026"` asks the server to
 * speak 2026-07-28 too (`--modern`), for a 2026 client direct.
 */
export function fixtureCommand(fixture, pidLog, era = '2025') {
  const script = FIXTURES[fixture];
  if (!script) throw new Error(`unknown fixture ${fixture}`);
  const args = [
    script,
    ...(pidLog ? ['--pid-log', pidLog] : []),
    ...(era === '2026' ? ['--modern'] : []),
  ];
  return { command: process.execPath, args };
}

const tomlString = (s) => JSON.stringify(s);

function serversToml(n, fixture, pidLog) {
  const { command, args } = fixtureCommand(fixture, pidLog);
  return serverNames(n)
    .map(
      (name) =>
        `[mcp_servers.${name}]\ncommand = ${tomlString(command)}\n` +
        `args = [${args.map(tomlString).join(', ')}]\nstartup_timeout_sec = 120\n`,
    )
    .join('\n');
}

/** Create `dir` with a config.toml for `kind` (`mcprt` | `codex`) and return it. */
export function writeHome(dir, { kind, n, fixture, pidLog, history = true }) {
  mkdirSync(dir, { recursive: true });
  const head =
    kind === 'codex'
      ? [
          'model_provider = "bench-dummy"',
          '',
          '[model_providers.bench-dummy]',
          'name = "bench-dummy"',
          'base_url = "http://127.0.0.1:9/v1"',
          'wire_api = "responses"',
          '',
        ].join('\n')
      : '';
  const tail = history ? '' : '\n[history]\nenabled = false\n';
  writeFileSync(join(dir, 'config.toml'), `${head}${serversToml(n, fixture, pidLog)}${tail}`);
  return dir;
}
