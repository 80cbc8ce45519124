/**
 * Helpers of the sandbox tests: the metadata fixture server (stdio and HTTP), reading what a
 * server received, running the built `mcprt sandbox`, and a check that bubblewrap can really
 * create its namespaces here (failing with the exact reason when it cannot).
 */

import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess, SpawnSyncReturns } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { BWRAP_LOCATIONS } from '../../packages/cli/src/sandbox/bwrap.js';
import { arr, FIXTURES, NODE, q, REPO_ROOT, text } from '../helpers/fixtures.js';

export const META_SERVER = join(FIXTURES, 'sandbox-meta-server.mjs');
export const CLI = join(REPO_ROOT, 'packages/cli/dist/main.js');
export const EXAMPLE_SERVER = join(REPO_ROOT, 'examples/sandboxed-shell-server/server.mjs');

export type Capability = 'current' | 'deprecated' | 'both' | 'none';

/** `[table]` for a stdio metadata fixture server. */
export function metaServer(table: string, capability: Capability): string {
  return `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr([META_SERVER, '--capability', capability])}\n`;
}

/** The JSON-RPC request the fixture received for a `meta` call. */
export function received(result: unknown): { params: Record<string, unknown> } {
  return JSON.parse(text(result)) as { params: Record<string, unknown> };
}

/** The `_meta` the fixture received (undefined when none was sent). */
export function receivedMeta(result: unknown): Record<string, unknown> | undefined {
  return received(result).params['_meta'] as Record<string, unknown> | undefined;
}

export function sandboxKeys(meta: Record<string, unknown> | undefined): string[] {
  return Object.keys(meta ?? {}).filter((k) => k.startsWith('codex/sandbox-'));
}

/** Start the fixture in HTTP mode on 127.0.0.1; resolves with its URL. */
export async function startHttpMetaServer(
  capability: Capability,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(NODE, [META_SERVER, '--http', '--capability', capability], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`HTTP fixture exited with ${String(code)}`)));
    child.stdout!.on('data', (d: Buffer) => {
      const m = /PORT (\d+)/.exec(String(d));
      if (m) resolve(m[1]!);
    });
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

/** Run the built `mcprt sandbox` with this state and command. */
export function runSandbox(
  state: unknown,
  command: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): SpawnSyncReturns<string> {
  const json = typeof state === 'string' ? state : JSON.stringify(state);
  return spawnSync(NODE, [CLI, 'sandbox', '--sandbox-state-json', json, '--', ...command], {
    encoding: 'utf8',
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env ?? process.env,
    timeout: options.timeoutMs ?? 30_000,
  });
}

/** {@link runSandbox} without blocking this process (for tests that serve something to it). */
export function runSandboxAsync(
  state: unknown,
  command: readonly string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const json = typeof state === 'string' ? state : JSON.stringify(state);
  const child = spawn(NODE, [CLI, 'sandbox', '--sandbox-state-json', json, '--', ...command], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
  child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
  return new Promise((resolve) =>
    child.once('close', (status) => resolve({ status, stdout, stderr })),
  );
}

/**
 * Throws, naming the reason, unless bubblewrap is installed and can create the namespaces
 * `mcprt sandbox` uses (user, mount, pid, net…) here. Tests call it so a machine where that is
 * impossible fails with the cause instead of with a confusing assertion.
 */
export function assertBubblewrapWorks(): void {
  const bwrap = BWRAP_LOCATIONS.find((p) => existsSync(p));
  if (bwrap === undefined) {
    throw new Error(
      `bubblewrap is not installed (looked in ${BWRAP_LOCATIONS.join(', ')}); npm test installs the bubblewrap package (scripts/setup-system.mjs)`,
    );
  }
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all'];
  const r = spawnSync(bwrap, [...args, '--cap-drop', 'ALL', '--', '/bin/true'], {
    encoding: 'utf8',
  });
  if (r.error) throw new Error(`cannot run ${bwrap}: ${r.error.message}`);
  if (r.status !== 0) {
    throw new Error(
      `bubblewrap cannot create its namespaces here (exit ${String(r.status)}): ${r.stderr.trim()}`,
    );
  }
}
