/**
 * `mcprt app-server [--listen stdio|ws://HOST:PORT] [--ws-token-file F] [--allow-non-loopback]`:
 * serve the app-server protocol. stdio is the default. WebSocket binds loopback only unless
 * `--allow-non-loopback`, and always requires a bearer token: read from `--ws-token-file` (which
 * must be this user's and private: mode 0600), or generated into `$MCPRT_HOME/app-server.token`
 * (a new 0600 file renamed into place). The token itself is never printed. A listen failure is
 * one line and exit 1. It stops — every server process group gone first — on SIGTERM, SIGINT or
 * SIGHUP (exit 0), and in stdio mode also when stdin closes or its parent dies.
 */

import { dirname } from 'node:path';

import { AppServer, listenWebSocket, serveStdio } from '@mcprt/app-server';

import type { GlobalOptions } from '../args.js';
import { parse, UsageError } from '../args.js';
import type { Io } from '../io.js';
import { configFile, openRuntime } from '../runtime.js';
import { readOrCreateToken } from '../tokenFile.js';
import { closeOnSignal, stopProcess, watchParent } from '../shutdown.js';
import { startTracing } from '../telemetry.js';

export async function appServerCommand(
  argv: readonly string[],
  globals: GlobalOptions,
  io: Io,
): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      listen: { type: 'string' },
      'ws-token-file': { type: 'string' },
      'allow-non-loopback': { type: 'boolean' },
      'max-message-bytes': { type: 'string' },
    },
    'app-server',
  );
  if (positionals.length > 0)
    throw new UsageError(`app-server: unexpected argument '${positionals[0]}'`);
  const listen = values.listen ?? 'stdio';
  let maxMessageBytes: number | undefined;
  if (values['max-message-bytes'] !== undefined) {
    maxMessageBytes = Number(values['max-message-bytes']);
    if (!Number.isInteger(maxMessageBytes) || maxMessageBytes < 1024) {
      throw new UsageError('app-server: --max-message-bytes must be an integer of at least 1024');
    }
  }
  const home = dirname(configFile(globals).file);
  // Before anything serves; its flush runs last on a signal, or after the server closed.
  const stopTracing = await startTracing(io);
  const runtime = openRuntime(globals, io);
  const server = new AppServer({
    runtime,
    home,
    ...(maxMessageBytes !== undefined ? { maxMessageBytes } : {}),
    log: (line) => io.err(line),
  });

  closeOnSignal(() => server.close(), { exitCode: 0 });
  if (listen === 'stdio') {
    // Its parent is its client: when the parent is gone, so is the reason to run.
    const unwatch = watchParent(() => void stopProcess(0));
    await serveStdio(server);
    unwatch();
    await server.close();
    await stopTracing();
    return 0;
  }
  const url = parseWsUrl(listen);
  const token = readOrCreateToken({
    file: values['ws-token-file'],
    flag: 'ws-token-file',
    command: 'app-server',
    home,
    generatedName: 'app-server.token',
  });
  const listener = await listenWebSocket(server, {
    host: url.hostname,
    port: Number(url.port || '0'),
    token: token.value,
    allowNonLoopback: values['allow-non-loopback'] === true,
  });
  closeOnSignal(() => listener.close());
  io.err(`mcprt app-server listening on ${listener.url} (bearer token in ${token.file})`);
  // It serves until a signal: the shutdown then closes the listener and the server, and exits.
  await new Promise<never>(() => {});
  return 0;
}

function parseWsUrl(listen: string): URL {
  let url: URL;
  try {
    url = new URL(listen);
  } catch {
    throw new UsageError(`app-server: --listen must be stdio or ws://HOST:PORT, got '${listen}'`);
  }
  if (url.protocol !== 'ws:' || url.pathname.replace(/\/$/, '') !== '') {
    throw new UsageError(`app-server: --listen must be stdio or ws://HOST:PORT, got '${listen}'`);
  }
  return url;
}
