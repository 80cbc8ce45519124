/**
 * `mcprt serve [--environment <id>]… [--view NAME] [--listen stdio | http://127.0.0.1:PORT |
 * https://HOST:PORT] [--tls-cert F --tls-key F] [--http-token-file F] [--sandbox-state-json JSON]`:
 * mcprt as one MCP server (docs/gateway.md), optionally of one view of its tools
 * (docs/tool-shaping.md; an unknown view exits 1 at once). stdio is the default — stdout is then
 * the MCP channel, so everything else goes to stderr. HTTP(S) serves `/mcp` (serveHttp.ts: plain
 * HTTP on loopback only; beyond loopback HTTPS and `[serve.auth] mode = "oauth"`; token mode's
 * bearer token from `--http-token-file` or generated into `$MCPRT_HOME/serve.token`, never
 * printed). It stops — every server process group gone first — on SIGTERM, SIGINT or SIGHUP
 * (exit 0), and with stdio also when stdin closes or its parent dies. A gateway started under a
 * gateway of its own config (the config lists `mcprt serve` on itself) exits 1 at once
 * (serveChain.ts).
 */

import { dirname } from 'node:path';

import { Gateway, serveGatewayStdio } from '@mcprt/gateway';
import type { RegistrationScope } from '@mcprt/runtime';

import type { GlobalOptions } from '../args.js';
import { parse, UsageError } from '../args.js';
import type { Io } from '../io.js';
import { configFile, openRuntime } from '../runtime.js';
import { joinServeChain } from '../serveChain.js';
import { checkHttpListen, listenHttp, parseHttpListen } from '../serveHttp.js';
import { closeOnSignal, stopProcess, watchParent } from '../shutdown.js';
import { startTracing } from '../telemetry.js';

export async function serveCommand(
  argv: readonly string[],
  globals: GlobalOptions,
  io: Io,
): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      environment: { type: 'string', multiple: true },
      view: { type: 'string' },
      listen: { type: 'string' },
      'http-token-file': { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'sandbox-state-json': { type: 'string' },
    },
    'serve',
  );
  if (positionals.length > 0)
    throw new UsageError(`serve: unexpected argument '${positionals[0]}'`);
  const listen = values.listen ?? 'stdio';
  if (listen === 'stdio') {
    const flags = ['http-token-file', 'tls-cert', 'tls-key'] as const;
    const flag = flags.find((f) => values[f] !== undefined);
    if (flag !== undefined) {
      const scheme = flag === 'http-token-file' ? 'http' : 'https';
      throw new UsageError(`serve: --${flag} only applies to --listen ${scheme}://…`);
    }
  }
  const http =
    listen === 'stdio'
      ? null
      : parseHttpListen(listen, values['tls-cert'], values['tls-key'], values['http-token-file']);
  const sandboxState = parseState(values['sandbox-state-json']);
  const config = configFile(globals).file;
  const home = dirname(config);
  const loop = joinServeChain(config, process.env);
  if (loop !== undefined) {
    io.err(`mcprt: ${loop}`);
    return 1;
  }

  // Before anything serves; its flush runs last on a signal, or after the runtime closed.
  const stopTracing = await startTracing(io);
  const runtime = openRuntime(globals, io);
  let gateway: Gateway | undefined;
  try {
    const auth = runtime.config.serve.auth;
    if (http !== null) checkHttpListen(http, auth);
    gateway = new Gateway({
      runtime,
      ...(values.environment !== undefined ? { environments: values.environment } : {}),
      ...(values.view !== undefined ? { view: values.view } : {}),
      ...(sandboxState !== undefined ? { sandboxState } : {}),
      loginCommand: (scope) => loginCommand(globals, scope),
      log: (line) => io.err(line),
    });
    const opened = gateway;
    closeOnSignal(() => opened.close(), { exitCode: 0 });
    if (http === null) {
      const handle = serveGatewayStdio(gateway);
      closeOnSignal(() => handle.close());
      // Its parent is its client: when the parent is gone, so is the reason to run.
      const unwatch = watchParent(() => void stopProcess(0));
      await handle.closed;
      unwatch();
      await handle.close();
      return 0;
    }
    const replicas = runtime.config.serve.replicas;
    const { listener, credentials } = await listenHttp(gateway, http, auth, home, replicas);
    closeOnSignal(() => listener.close());
    io.err(`mcprt serve listening on ${listener.url} (${credentials})`);
    // It serves until a signal: the shutdown then closes the listener, the gateway, the runtime.
    await new Promise<never>(() => {});
    return 0;
  } finally {
    await gateway?.close();
    await runtime.close();
    await stopTracing();
  }
}

function parseState(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(
      `serve: --sandbox-state-json is not valid JSON: ${(error as Error).message}`,
    );
  }
}

/** The exact command that logs `scope` in, with the home this gateway was started with. */
function loginCommand(globals: GlobalOptions, scope: RegistrationScope): string {
  const words = ['mcprt'];
  if (globals.home !== undefined) words.push('--home', shellWord(globals.home));
  if (globals.codexHome !== undefined) words.push('--codex-home', shellWord(globals.codexHome));
  words.push('mcp', 'login', shellWord(scope.name));
  if (scope.environmentId !== null) words.push('--environment', shellWord(scope.environmentId));
  return words.join(' ');
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
