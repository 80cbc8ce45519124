// One side of the 2026-07-28 row (bench/revision2026.mjs) against a 2026-only stdio server
// (bench/fixtures/modern-echo.mjs): `side: 'sdk'` — a raw `@modelcontextprotocol/client` 2.4
// `Client` in `versionNegotiation: { mode: 'auto' }` over the SDK's `StdioClientTransport`,
// `connect()` + `listTools()`; `side: 'lib'` — mcprt's library (`Runtime.load({home})`, the
// home's one server with the default `protocol_version = "auto"`; `libnh`: history off),
// `session.ready()`.
// Then (`mode: 'latency'`) `echo` calls on the server.
import { Runtime } from '@mcprt/runtime';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { checkEcho, measureCalls } from '../lib/calls.mjs';
import { peakRssMb } from '../lib/proc.mjs';
import { emit, runPeer } from './emit.mjs';

async function sdkSide({ command, args }) {
  const client = new Client(
    { name: 'mcprt-bench-sdk', version: '0.1.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  await client.listTools();
  if (client.getNegotiatedProtocolVersion() !== '2026-07-28')
    throw new Error(`negotiated ${client.getNegotiatedProtocolVersion()}`);
  return {
    callOnce: () => client.callTool({ name: 'echo', arguments: { message: 'hi' } }),
    close: () => client.close(),
  };
}

async function libSide({ home }) {
  const runtime = Runtime.load({ home });
  const session = runtime.startSession({ cwd: home });
  await session.ready();
  const status = session.status('s0');
  if (status.protocolVersion !== '2026-07-28')
    throw new Error(`s0: ${status.protocolVersion ?? status.error}`);
  return {
    callOnce: () => session.callTool({ server: 's0', tool: 'echo', arguments: { message: 'hi' } }),
    close: () => runtime.close(),
  };
}

runPeer(async (options) => {
  const side = options.side === 'sdk' ? await sdkSide(options) : await libSide(options);
  emit('ready');
  const result = { rssMb: peakRssMb() };
  if (options.mode === 'latency') {
    checkEcho(await side.callOnce(), 'modern');
    Object.assign(result, await measureCalls(side.callOnce, options.calls));
  }
  await side.close();
  return result;
});
