// Where things are: the repository, the bench folder, the built CLI and the bench's scratch and
// cache directories (both outside the repository).
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
export const REPO_ROOT = dirname(BENCH_DIR);
export const CLI = join(REPO_ROOT, 'packages', 'cli', 'dist', 'main.js');
export const RUNTIME_DIST = join(REPO_ROOT, 'packages', 'runtime', 'dist');
export const CACHE_DIR = process.env.MCPRT_BENCH_CACHE ?? join(homedir(), '.cache', 'mcprt-bench');
export const SCRATCH_PARENT = tmpdir();

/** `MCPRT_BENCH_CPU_PROF=DIR`: every Node process the bench starts (peers, mcprt app-server) writes
 * a V8 CPU profile into DIR (`node --cpu-prof`); summarise one with `node bench/profile.mjs`. */
export const PROFILE_ARGS = process.env.MCPRT_BENCH_CPU_PROF
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.MCPRT_BENCH_CPU_PROF}`]
  : [];

/** `MCPRT_BENCH_NODE_ARGS="--flag …"` (experiments only): extra Node/V8 options for the mcprt
 * processes under test (app-server, gateway). */
export const TARGET_NODE_ARGS = (process.env.MCPRT_BENCH_NODE_ARGS ?? '')
  .split(' ')
  .filter(Boolean);
