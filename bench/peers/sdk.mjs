// The floor: a raw MCP SDK client process (`@modelcontextprotocol/client` 2.4 `Client` +
// `StdioClientTransport`) that starts N servers itself, `connect()` + `listTools()` all in
// parallel (what an app-server does at start-up), then calls `echo` on s0.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { checkEcho, measureCalls } from '../lib/calls.mjs';
import { fixtureCommand, serverNames } from '../lib/homes.mjs';
import { peakRssMb } from '../lib/proc.mjs';
import { emit, runPeer } from './emit.mjs';

runPeer(async ({ n, fixture, pidLog, mode, calls }) => {
  const { command, args } = fixtureCommand(fixture, pidLog);
  const clients = await Promise.all(
    serverNames(n).map(async () => {
      const client = new Client({ name: 'mcprt-bench-sdk', version: '0.1.0' });
      await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
      await client.listTools();
      return client;
    }),
  );
  emit('ready');
  const result = { rssMb: peakRssMb() };
  if (mode === 'latency') {
    const client = clients[0];
    const callOnce = () => client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    Object.assign(result, await measureCalls(callOnce, calls, (r) => checkEcho(r, fixture)));
  }
  await Promise.all(clients.map((c) => c.close()));
  return result;
});
