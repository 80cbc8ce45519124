// Drives an app-server over JSON-RPC on stdio, the same way for mcprt (`node packages/cli/dist/
// main.js --home H app-server`) and Codex (its native binary's `app-server`, CODEX_HOME=H):
// `initialize` (experimentalApi), `thread/start {ephemeral:true}`, wait for
// `mcpServer/startupStatus/updated` ready for every server, then the requested measurement.
// Times are taken here, from spawning the server to the last `ready`; RSS is the server's VmHWM.
import { performance } from 'node:perf_hooks';

import { checkEcho, measureCalls } from '../lib/calls.mjs';
import { serverNames } from '../lib/homes.mjs';
import { countLines } from '../lib/lines.mjs';
import { CLI, PROFILE_ARGS, TARGET_NODE_ARGS } from '../lib/paths.mjs';
import { descendants, peakRssMb, rssMb } from '../lib/proc.mjs';
import { percentile } from '../lib/stats.mjs';
import { RpcClient } from '../lib/rpcClient.mjs';
import { runPeer } from './emit.mjs';

function spawnTarget(target, home, codexBin) {
  if (target === 'codex') {
    return new RpcClient(codexBin, ['app-server'], {
      env: { ...process.env, CODEX_HOME: home, RUST_LOG: 'error' },
      cwd: home,
    });
  }
  return new RpcClient(
    process.execPath,
    [...PROFILE_ARGS, ...TARGET_NODE_ARGS, CLI, '--home', home, 'app-server'],
    {
      cwd: home,
    },
  );
}

/**
 * Resolves (with the time) when every server of the thread reported `ready`; rejects on a
 * `failed` one. Notifications are collected from the start: Codex may send them before the
 * `thread/start` response, mcprt sends them right after it.
 */
function waitAllReady(rpc, names, timeoutMs) {
  const pending = new Set(names);
  const failures = [];
  const seen = [];
  let threadId = null;
  let settle;
  const done = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`not ready after ${timeoutMs} ms: ${[...pending].join(',')}`)),
      timeoutMs,
    );
    settle = () => {
      if (threadId === null) return;
      for (const p of seen.splice(0)) {
        if (p.threadId !== threadId || !pending.has(p.name)) continue;
        if (p.status === 'failed') failures.push(`${p.name}: ${p.error}`);
        if (p.status === 'ready' || p.status === 'failed') pending.delete(p.name);
      }
      if (pending.size > 0) return;
      clearTimeout(timer);
      off();
      if (failures.length > 0) reject(new Error(`servers failed: ${failures.join('; ')}`));
      else resolve(performance.now());
    };
  });
  const off = rpc.onNotification((msg) => {
    if (msg.method !== 'mcpServer/startupStatus/updated') return;
    seen.push(msg.params);
    settle();
  });
  return {
    done,
    setThread(id) {
      threadId = id;
      settle();
    },
  };
}

/**
 * `mcpServerStatus/list` on the thread: latency, and how many server processes it started (the
 * fixtures log every launch) and whether the server has more child processes afterwards.
 */
async function measureStatusList(rpc, threadId, n, pidLog, { detail, calls, warmup = 10 }) {
  const params = { threadId, ...(detail === 'full' ? {} : { detail }) };
  const launchesBefore = countLines(pidLog);
  const childrenBefore = descendants(rpc.pid).length;
  const times = [];
  for (let i = 0; i < warmup + calls; i++) {
    const t = performance.now();
    const result = await rpc.request('mcpServerStatus/list', params);
    const ms = performance.now() - t;
    if (i >= warmup) times.push(ms);
    if (i === 0 && result.data.length !== n) {
      throw new Error(`mcpServerStatus/list listed ${result.data.length} of ${n} servers`);
    }
  }
  // Let probe processes log their pid and exit, so the next measurement starts quiet.
  await new Promise((r) => setTimeout(r, 200));
  for (let i = 0; i < 30 && descendants(rpc.pid).length > childrenBefore; i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    variant: detail,
    requests: warmup + calls,
    calls: times.length,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    serverLaunches: countLines(pidLog) - launchesBefore,
    childProcessesBefore: childrenBefore,
    childProcessesAfter: descendants(rpc.pid).length,
  };
}

runPeer(async ({ target, home, n, fixture, mode, pidLog, codexBin, calls, statusList }) => {
  const rpc = spawnTarget(target, home, codexBin);
  const t0 = rpc.spawnedAt;
  try {
    const ready = waitAllReady(rpc, serverNames(n), 180_000);
    await rpc.initialize();
    const initializedMs = performance.now() - t0;
    const { thread } = await rpc.request('thread/start', { ephemeral: true, cwd: home });
    const threadStartMs = performance.now() - t0;
    ready.setThread(thread.id);
    const readyAt = await ready.done;
    const result = {
      startMs: readyAt - t0,
      initializedMs,
      threadStartMs,
      rssMb: peakRssMb(rpc.pid),
    };
    await new Promise((r) => setTimeout(r, 100));
    const tree = [rpc.pid, ...descendants(rpc.pid)];
    result.treeRssMb = tree.reduce((sum, pid) => sum + (rssMb(pid) ?? 0), 0);
    if (statusList) {
      result.statusList = [];
      for (const variant of statusList) {
        result.statusList.push(await measureStatusList(rpc, thread.id, n, pidLog, variant));
      }
    }
    if (mode === 'latency') {
      const params = {
        threadId: thread.id,
        server: 's0',
        tool: 'echo',
        arguments: { message: 'hi' },
      };
      const callOnce = () => rpc.request('mcpServer/tool/call', params);
      Object.assign(result, await measureCalls(callOnce, calls, (r) => checkEcho(r, fixture)));
      result.rssAfterCallsMb = peakRssMb(rpc.pid);
    }
    return result;
  } finally {
    await rpc.close();
  }
});
