// mcprt as one MCP server: a raw MCP SDK client (`@modelcontextprotocol/client` 2.4) spawns
// `node packages/cli/dist/main.js --home H serve` over stdio — the default 2025 handshake, or
// `versionNegotiation: auto` (2026-07-28) with `era: "2026"` — lists the gateway's tools (they
// include `s0__echo` once every server is ready), then calls `s0__echo`: every call crosses the
// client, the gateway's MCP server, the runtime and the fixture server.
// `via: "relay-pipe" | "relay-sdk"` puts one of the bench's reference relays
// (bench/fixtures/relay-*.mjs) in the gateway's place instead — the floors the gateway's ratio
// is read against (bench/gateway.mjs, docs/performance.md); the client then calls `echo`.
// The bench's own OTEL_* variables reach the gateway (the transport passes only a few by
// default), so `OTEL_EXPORTER_OTLP_ENDPOINT=… npm run bench:gateway` measures it traced.
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { join } from 'node:path';

import { checkEcho, measureCalls } from '../lib/calls.mjs';
import { fixtureCommand } from '../lib/homes.mjs';
import { BENCH_DIR, CLI, PROFILE_ARGS, TARGET_NODE_ARGS } from '../lib/paths.mjs';
import { peakRssMb } from '../lib/proc.mjs';
import { emit, runPeer } from './emit.mjs';

const RELAYS = new Set(['relay-pipe', 'relay-sdk']);

const otelVariables = () =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('OTEL_')));

runPeer(async ({ home, n, fixture, pidLog, mode, calls, era, via = 'serve' }) => {
  const relay = RELAYS.has(via);
  if (!relay && via !== 'serve') throw new Error(`unknown via ${via}`);
  if (relay && era === '2026') throw new Error(`${via} speaks the 2025 handshake only`);
  const client = new Client(
    { name: 'mcprt-bench-gateway', version: '0.1.0' },
    era === '2026' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  const args = relay
    ? [join(BENCH_DIR, 'fixtures', `${via}.mjs`), ...fixtureCommand(fixture, pidLog).args]
    : [...TARGET_NODE_ARGS, CLI, '--home', home, 'serve'];
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [...PROFILE_ARGS, ...args],
      env: { ...getDefaultEnvironment(), ...otelVariables() },
      stderr: 'ignore',
    }),
  );
  const expected = era === '2026' ? '2026-07-28' : '2025-11-25';
  if (client.getNegotiatedProtocolVersion() !== expected) {
    throw new Error(`negotiated ${client.getNegotiatedProtocolVersion()}, expected ${expected}`);
  }
  const tool = relay ? 'echo' : 's0__echo';
  const wanted = relay ? 1 : n;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    if (
      (relay ? names.filter((t) => t === 'echo') : names.filter((t) => /^s\d+__echo$/.test(t)))
        .length === wanted
    )
      break;
    if (Date.now() > deadline) throw new Error(`only ${tools.length} of ${wanted} tools listed`);
    await new Promise((r) => setTimeout(r, 50));
  }
  emit('ready');
  const result = { rssMb: peakRssMb() };
  if (mode === 'latency') {
    const callOnce = () => client.callTool({ name: tool, arguments: { message: 'hi' } });
    Object.assign(result, await measureCalls(callOnce, calls, (r) => checkEcho(r, fixture)));
  }
  await client.close();
  return result;
});
