// One HTTP measurement of the gateway bench (bench/gateway.mjs --http-peers): starts one HTTP
// target (bench/peers/httpTargets.mjs: the SDK's own HTTP server, `mcprt serve`, supergateway or
// mcp-proxy in front of the fixture echo server), connects `clients` raw MCP SDK clients
// (`@modelcontextprotocol/client` 2.4 `Client` + `StreamableHTTPClientTransport`, the 2025-11-25
// handshake), lists the tools, makes `warmup` calls of echo in all (spread over the clients, each
// sequential), then has every client call echo sequentially for `seconds`. Reports throughput
// (completed calls/s of all clients), p50/p99 of those calls, failed calls, the negotiated
// revision, and the target process's memory: VmHWM and VmRSS of the target process itself (the
// proxy, not its children) and VmRSS summed over it and every process it started (`treeRssMb`),
// and the CPU time per call, in the measured window, of the target with every process it started
// (`targetCpuMsPerCall`, from /proc; on a loaded two-core host the steadier figure), of the
// target process alone (`peerCpuMsPerCall`: without the echo server(s) it started) and of this
// client process (`clientCpuMsPerCall`).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { checkEcho } from '../lib/calls.mjs';
import { descendants, peakRssMb, rssMb } from '../lib/proc.mjs';
import { percentile } from '../lib/stats.mjs';
import { emit, runPeer } from './emit.mjs';
import { startHttpTarget } from './httpTargets.mjs';

const CONNECT_BATCH = 8;

async function inBatches(items, size, fn) {
  const out = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  }
  return out;
}

/** CPU time (user + system, ms) of `pids` from /proc (each process's threads together). */
function cpuMs(pids) {
  let total = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * 10; // USER_HZ = 100
    } catch {
      // gone
    }
  }
  return total;
}

/** An error's message with its cause's (undici's `fetch failed` says why only in its cause). */
function describe(error) {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (!cause) return error.message;
  const code = cause.code ? `${cause.code}: ` : '';
  return `${error.message} (${code}${cause.message ?? String(cause)})`;
}

const withTimeout = (promise, ms) =>
  Promise.race([promise, new Promise((resolve) => setTimeout(resolve, ms))]);

runPeer(async (options) => {
  try {
    return await measure(options);
  } catch (error) {
    throw new Error(describe(error));
  }
});

async function measure({ target, fixture, pidLog, home, clients: count, warmup, seconds }) {
  const server = await startHttpTarget(target, { fixture, pidLog, home });
  const clients = [];
  try {
    const connectOne = async () => {
      const client = new Client({ name: 'mcprt-bench-http', version: '0.1.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: server.headers },
        }),
      );
      clients.push(client);
      return client;
    };
    // The first client waits for the tool (mcprt starts its servers with the first request).
    const first = await connectOne();
    const deadline = Date.now() + 120_000;
    for (;;) {
      const { tools } = await first.listTools();
      if (tools.some((t) => t.name === server.tool)) break;
      if (Date.now() > deadline) throw new Error(`no ${server.tool} in ${tools.length} tools`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await inBatches(
      Array.from({ length: count - 1 }, (_, i) => i),
      CONNECT_BATCH,
      connectOne,
    );
    const negotiated = [...new Set(clients.map((c) => c.getNegotiatedProtocolVersion()))];
    for (const client of clients) await client.listTools();
    emit('ready');

    const call = (client) => client.callTool({ name: server.tool, arguments: { message: 'hi' } });
    let errors = 0;
    let errorSample = null;
    const fail = (error) => {
      errors += 1;
      errorSample ??= describe(error);
    };
    // Warm-up: `warmup` calls in all, each client sequential, all clients at once.
    const perClient = Math.max(5, Math.ceil(warmup / count));
    await Promise.all(
      clients.map(async (client) => {
        for (let i = 0; i < perClient; i++) {
          const result = await call(client);
          if (i === 0) checkEcho(result, fixture);
        }
      }),
    );

    const latencies = [];
    const pid = server.child.pid;
    const treePids = [pid, ...descendants(pid)];
    const targetCpu0 = cpuMs(treePids);
    const peerCpu0 = cpuMs([pid]);
    const clientCpu0 = process.cpuUsage();
    const t0 = performance.now();
    const end = t0 + seconds * 1000;
    await Promise.all(
      clients.map(async (client) => {
        while (performance.now() < end) {
          const t = performance.now();
          try {
            const result = await call(client);
            if (result?.isError) throw new Error(`tool error: ${JSON.stringify(result)}`);
            latencies.push(performance.now() - t);
          } catch (error) {
            fail(error);
          }
        }
      }),
    );
    const elapsed = performance.now() - t0;
    const targetCpu = cpuMs(treePids) - targetCpu0;
    const peerCpu = cpuMs([pid]) - peerCpu0;
    const clientCpu = process.cpuUsage(clientCpu0);
    const tree = [pid, ...descendants(pid)].map((p) => rssMb(p) ?? 0);
    const result = {
      clients: count,
      negotiated,
      calls: latencies.length,
      errors,
      ...(errorSample ? { errorSample: errorSample.slice(0, 300) } : {}),
      throughput: (latencies.length / elapsed) * 1000,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      peerHwmMb: peakRssMb(pid),
      peerRssMb: rssMb(pid),
      treeRssMb: tree.reduce((a, b) => a + b, 0),
      treeProcesses: tree.length,
      targetCpuMsPerCall: latencies.length ? targetCpu / latencies.length : null,
      peerCpuMsPerCall: latencies.length ? peerCpu / latencies.length : null,
      clientCpuMsPerCall: latencies.length
        ? (clientCpu.user + clientCpu.system) / 1000 / latencies.length
        : null,
    };
    return result;
  } finally {
    await withTimeout(Promise.allSettled(clients.map((c) => c.close())), 5000);
    await server.stop();
  }
}
