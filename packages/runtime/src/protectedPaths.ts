/**
 * Paths that carry this process's authority and that no command sandboxed by mcprt's own
 * launcher may see: the mcprt home (app-server token, OAuth credentials file, history database,
 * config), a `--ws-token-file`, ssh control sockets (each one a live login to a remote host).
 * Whoever creates such a path registers it here; the default launcher (sandbox/defaultLauncher.ts)
 * hands the list to `mcprt sandbox` through the file named by {@link SANDBOX_PROTECT_FILE_ENV},
 * and `mcprt sandbox` hides every listed path under every policy except full access
 * (docs/adr/0010-sandboxed-commands-and-host-authority.md). A leaf module: anything may import it.
 */

import { mkdirSync, mkdtempSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** Names the file (a JSON array of absolute paths) `mcprt sandbox` reads the list from. */
export const SANDBOX_PROTECT_FILE_ENV = 'MCPRT_SANDBOX_PROTECT_FILE';

const paths = new Set<string>();
const listeners = new Set<() => void>();

/** Hide these paths (made absolute) from every command sandboxed by mcprt's launcher. */
export function protectFromSandbox(...list: readonly string[]): void {
  let added = false;
  for (const path of list) {
    const absolute = resolve(path);
    if (paths.has(absolute)) continue;
    paths.add(absolute);
    added = true;
  }
  if (added) for (const listener of listeners) listener();
}

/** Every path registered so far, in registration order. */
export function sandboxProtectedPaths(): string[] {
  return [...paths];
}

/** Called after new paths were registered; returns the unsubscribe function. */
export function onSandboxProtectedPathsChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * What is hidden whoever asks, read from an environment: the mcprt home (`$MCPRT_HOME`,
 * `~/.mcprt`) and the user's session (`$XDG_RUNTIME_DIR` and `/run/user/<uid>`: the D-Bus session
 * bus and the keyring, the systemd user manager, agents; the socket a `unix:path=` session bus
 * address names). Relative and empty values are ignored; the paths may not exist.
 */
export function defaultProtectedPaths(env: NodeJS.ProcessEnv, uid = process.getuid?.()): string[] {
  const paths: string[] = [];
  const add = (path: string | undefined) => {
    if (path !== undefined && path !== '' && isAbsolute(path)) paths.push(path);
  };
  add(env['MCPRT_HOME']);
  add(join(env['HOME'] || homedir(), '.mcprt'));
  add(env['XDG_RUNTIME_DIR']);
  if (uid !== undefined) add(`/run/user/${uid}`);
  for (const address of (env['DBUS_SESSION_BUS_ADDRESS'] ?? '').split(';')) {
    const match = /^unix:(?:.*,)?path=([^,]+)/.exec(address);
    if (match) add(decodeDbusValue(match[1]!));
  }
  return paths;
}

/** D-Bus address values escape bytes as `%xx`. */
function decodeDbusValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A new private (0700) directory for this process's launcher shim or ssh sockets, registered with
 * {@link protectFromSandbox}. It is made under `~/.mcprt/run`, which every `mcprt sandbox` hides
 * by default, so a sandboxed command of *any* mcprt process of this user can neither replace the
 * launcher nor reach the sockets (the temporary directory is writable under `workspaceWrite`).
 * Falls back to the temporary directory when that place cannot be created or when a path of
 * `reserve` more characters inside it would be longer than `maxLength` (unix socket paths).
 */
export function makePrivateDirectory(
  prefix: string,
  options: { readonly maxLength?: number; readonly reserve?: number } = {},
): string {
  const run = join(process.env['HOME'] || homedir(), '.mcprt', 'run');
  const fits = (dir: string) =>
    options.maxLength === undefined ||
    dir.length + 1 + prefix.length + 6 + (options.reserve ?? 0) <= options.maxLength;
  let dir: string;
  try {
    if (!fits(run)) throw new Error('too long');
    mkdirSync(run, { recursive: true, mode: 0o700 });
    dir = mkdtempSync(join(run, prefix));
  } catch {
    dir = mkdtempSync(join(tmpdir(), prefix));
  }
  protectFromSandbox(dir);
  return dir;
}
