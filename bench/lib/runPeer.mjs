// Runs one measurement in a fresh process: `node bench/peers/<peer>.mjs '<options json>'`.
// Returns the peer's result plus `readyMs`, the time from spawning it to its `ready` line (the
// start → all ready figure of in-process targets: the raw SDK client and mcprt's library).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import { BENCH_DIR, PROFILE_ARGS, REPO_ROOT } from './paths.mjs';

export function runPeer(peer, options, timeoutMs = 240_000) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(
      process.execPath,
      [...PROFILE_ARGS, join(BENCH_DIR, 'peers', `${peer}.mjs`), JSON.stringify(options)],
      {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let readyMs = null;
    let result = null;
    let stderr = '';
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      const now = performance.now();
      buffered += chunk;
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        let msg;
        try {
          msg = JSON.parse(line);
        } catch {
          continue;
        }
        if (msg.event === 'ready') readyMs = now - t0;
        if (msg.event === 'result') result = msg;
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${timeoutMs} ms)`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!result || result.error) {
        const why = result?.error ?? `exited with ${code ?? signal} and no result`;
        resolve({ error: `${why}${stderr.trim() ? `; stderr: ${stderr.trim()}` : ''}` });
        return;
      }
      const { event: _event, ...data } = result;
      resolve({ ...data, ...(readyMs !== null ? { readyMs } : {}) });
    });
  });
}
