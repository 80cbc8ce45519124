import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioProcessTransport } from '/work/wt-conn/packages/runtime/dist/launch/stdioTransport.js';
import { LocalEnvironment } from '/work/wt-conn/packages/runtime/dist/environments/local.js';
const [mode, kind, target, ...rest] = process.argv.slice(2);
const negotiation = mode === 'legacy' ? { mode: 'legacy' } : mode === 'auto' ? { mode: 'auto', probe: { timeoutMs: 5000 } } : { mode: { pin: mode } };
const client = new Client({ name: 'x', version: '1' }, { versionNegotiation: negotiation });
const transport = kind === 'stdio'
  ? new StdioProcessTransport(new LocalEnvironment(), { command: process.execPath, args: [target, ...rest], env: { ...process.env }, cwd: null })
  : new StreamableHTTPClientTransport(new URL(target));
const t0 = performance.now();
try {
  await client.connect(transport, { timeout: 10000 });
  console.log('OK', (performance.now() - t0).toFixed(0), 'ms', client.getNegotiatedProtocolVersion(), client.getProtocolEra?.());
  const d = client.getDiscoverResult?.(); if (d) console.log('discover', JSON.stringify(d).slice(0, 300));
} catch (e) {
  console.log('FAIL', (performance.now() - t0).toFixed(0), 'ms');
  for (let x = e, i = 0; x && i < 4; x = x.cause, i++) console.log(' ', x.constructor?.name, 'code=', x.code, 'msg=', String(x.message).slice(0, 300), 'data=', JSON.stringify(x.data)?.slice(0, 300));
  if (transport.exit) console.log('exit', transport.exit, transport.stderr.snapshot());
}
await client.close().catch(() => {}); await transport.close().catch(() => {});
