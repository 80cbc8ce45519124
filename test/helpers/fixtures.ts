/**
 * Shared test helpers: paths of the fixture servers, temporary mcprt homes with a config.toml,
 * and small waiting utilities. Everything here drives real processes and real files.
 */

import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURES = join(REPO_ROOT, 'test/fixtures/servers');
export const ECHO_SERVER = join(FIXTURES, 'echo-server.mjs');
export const SILENT_SERVER = join(FIXTURES, 'silent-server.mjs');
export const HTTP_SERVER = join(FIXTURES, 'http-server.mjs');
export const RAW_SERVER = join(FIXTURES, 'raw-server.mjs');
export const FAULT_SERVER = join(FIXTURES, 'fault-server.mjs');
export const HTTP_SESSION_SERVER = join(FIXTURES, 'http-session-server.mjs');
export const NODE = process.execPath;
export const EVERYTHING_SERVER = join(
  REPO_ROOT,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

/** A TOML basic string literal for any JS string. */
export const q = (s: string): string => JSON.stringify(s);

/** TOML array of strings. */
export const arr = (xs: readonly string[]): string => `[${xs.map(q).join(', ')}]`;

/** A fresh temporary directory (real path, so cwd comparisons hold). */
export function tempDir(prefix = 'mcprt-test-'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** A fresh mcprt home whose config.toml has the given text. */
export function makeHome(configToml: string): string {
  const home = tempDir('mcprt-home-');
  writeFileSync(join(home, 'config.toml'), configToml);
  return home;
}

/** `[table]` for a stdio echo fixture server; `name` becomes its reply prefix. */
export function echoServer(table: string, name: string, extra = ''): string {
  return `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr([ECHO_SERVER, '--name', name])}\n${extra}\n`;
}

/** An exec environment that runs servers through `sh -c 'exec "$@"'` on this machine. */
export function shExecEnvironment(id: string, cwd: string, extra = ''): string {
  return `[environments.${id}]\ntype = "exec"\nprogram = "sh"\nargs = ["-c", "exec \\"$@\\"", "sh"]\ncwd = ${q(cwd)}\n${extra}\n`;
}

export async function waitFor<T>(
  check: () => T | undefined | false,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** First text block of a tool result. */
export function text(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.find((c) => c.type === 'text')?.text ?? '';
}
