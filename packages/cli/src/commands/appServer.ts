/**
 * `mcprt app-server [--listen stdio|ws://HOST:PORT] [--ws-token-file F] [--allow-non-loopback]`:
 * serve the app-server protocol. stdio is the default. WebSocket binds loopback only unless
 * `--allow-non-loopback`, and always requires a bearer token: read from `--ws-token-file` (which
 * must be this user's and private: mode 0600), or generated into `$MCPRT_HOME/app-server.token`
 * (a new 0600 file renamed into place). The token itself is never printed. A listen failure is
 * one line and exit 1.
 */

import { dirname } from 'node:path';

import { AppServer, listenWebSocket, serveStdio } from '@mcprt/app-server';

import type { GlobalOptions } from '../args.js';
import { parse, UsageError } from '../args.js';
import type { Io } from '../io.js';
import { configFile, openRuntime } from '../runtime.js';
import { readOrCreateToken } from '../tokenFile.js';

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
  const runtime = openRuntime(globals, io);
  const server = new AppServer({
    runtime,
    home,
    ...(maxMessageBytes !== undefined ? { maxMessageBytes } : {}),
    log: (line) => io.err(line),
  });

  if (listen === 'stdio') {
    await serveStdio(server);
    await server.close();
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
  io.err(`mcprt app-server listening on ${listener.url} (bearer token in ${token.file})`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await listener.close();
  await server.close();
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
