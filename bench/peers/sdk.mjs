// The floor: a raw MCP SDK client process (`@modelcontextprotocol/client` 2.4 `Client` +
// `StdioClientTransport`) that starts N servers itself, `connect()` + `listTools()` all in
// parallel (what an app-server does at start-up), then calls `echo` on s0. `era: "2026"`: the
// client negotiates 2026-07-28 (`versionNegotiation: auto`) with the fixture's 2026 mode
// (`--modern`) — the like-for-like floor for a 2026 client through the gateway.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { checkEcho, measureCalls } from '../lib/calls.mjs';
import { fixtureCommand, serverNames } from '../lib/homes.mjs';
import { peakRssMb } from '../lib/proc.mjs';
import { emit, runPeer } from './emit.mjs';

runPeer(async ({ n, fixture, pidLog, mode, calls, era = '2025' }) => {
  const { command, args } = fixtureCommand(fixture, pidLog, era);
  const expected = era === '2026' ? '2026-07-28' : '2025-11-25';
  const clients = await Promise.all(
    serverNames(n).map(async () => {
      const client = new Client(
        { name: 'mcprt-bench-sdk', version: '0.1.0' },
        era === '2026' ? { versionNegotiation: { mode: 'auto' } } : {},
      );
      await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
      if (client.getNegotiatedProtocolVersion() !== expected) {
        throw new Error(
          `negotiated ${client.getNegotiatedProtocolVersion()}, expected ${expected}`,
        );
      }
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
