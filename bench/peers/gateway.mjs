// mcprt as one MCP server: a raw MCP SDK client (`@modelcontextprotocol/client` 2.4) spawns
// `node packages/cli/dist/main.js --home H serve` over stdio — the default 2025 handshake, or
// `versionNegotiation: auto` (2026-07-28) with `era: "2026"` — lists the gateway's tools (they
// include `s0__echo` once every server is ready), then calls `s0__echo`: every call crosses the
// client, the gateway's MCP server, the runtime and the fixture server.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { checkEcho, measureCalls } from '../lib/calls.mjs';
import { CLI, PROFILE_ARGS } from '../lib/paths.mjs';
import { peakRssMb } from '../lib/proc.mjs';
import { emit, runPeer } from './emit.mjs';

runPeer(async ({ home, n, fixture, mode, calls, era }) => {
  const client = new Client(
    { name: 'mcprt-bench-gateway', version: '0.1.0' },
    era === '2026' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [...PROFILE_ARGS, CLI, '--home', home, 'serve'],
      stderr: 'ignore',
    }),
  );
  const expected = era === '2026' ? '2026-07-28' : '2025-11-25';
  if (client.getNegotiatedProtocolVersion() !== expected) {
    throw new Error(`negotiated ${client.getNegotiatedProtocolVersion()}, expected ${expected}`);
  }
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { tools } = await client.listTools();
    if (tools.filter((t) => /^s\d+__echo$/.test(t.name)).length === n) break;
    if (Date.now() > deadline) throw new Error(`only ${tools.length} of ${n} tools listed`);
    await new Promise((r) => setTimeout(r, 50));
  }
  emit('ready');
  const result = { rssMb: peakRssMb() };
  if (mode === 'latency') {
    const callOnce = () => client.callTool({ name: 's0__echo', arguments: { message: 'hi' } });
    checkEcho(await callOnce(), fixture);
    Object.assign(result, await measureCalls(callOnce, calls));
  }
  await client.close();
  return result;
});
