/**
 * The remote host's own mcprt config, read through an ssh environment: the shell script that
 * prints `${MCPRT_HOME:-$HOME/.mcprt}/config.toml` (framed by a marker, so output from the remote
 * login shell's rc files cannot be mistaken for it), and the validation of its `[mcp_servers]`
 * as registrations contributed by that environment. Only `[mcp_servers]` is read; everything else
 * in the remote file belongs to the remote host. The file is untrusted: its registrations may
 * read only `source = "remote"` variables and no OAuth credentials of this machine, unless this
 * machine's config lends them (`remote_allow_env_vars`, `remote_allow_oauth`).
 */

import { Context, Sink } from '../config/diagnostics.js';
import { Fields } from '../config/fields.js';
import { parseToml } from '../config/load.js';
import { createLocator } from '../config/locate.js';
import { validateServer } from '../config/server.js';
import type { InvalidServerConfig, RemoteTrust, ServerConfig } from '../config/types.js';
import type { EnvironmentRegistrations } from './types.js';

const MARKER = 'mcprt-remote-config';

const NOTHING_LENT: RemoteTrust = { envVars: [], oauth: false };

/** Prints `MARKER\0<path>\0present|absent\0<file bytes>`; a failing `cat` exits non-zero. */
export const REMOTE_CONFIG_SCRIPT = [
  'f="${MCPRT_HOME:-$HOME/.mcprt}/config.toml"',
  `if [ -e "$f" ]; then printf '${MARKER}\\0%s\\0present\\0' "$f"; exec cat -- "$f"; fi`,
  `printf '${MARKER}\\0%s\\0absent\\0' "$f"`,
].join('\n');

export interface RemoteConfigFile {
  /** The remote path read. */
  readonly path: string;
  /** File text, or null when the remote host has no config file. */
  readonly text: string | null;
}

/** Extract the framed answer of {@link REMOTE_CONFIG_SCRIPT}; null when the marker is missing. */
export function parseRemoteConfigOutput(stdout: Buffer): RemoteConfigFile | null {
  const start = stdout.indexOf(`${MARKER}\0`);
  if (start < 0) return null;
  let rest = stdout.subarray(start + MARKER.length + 1);
  const pathEnd = rest.indexOf(0);
  if (pathEnd < 0) return null;
  const path = rest.subarray(0, pathEnd).toString('utf8');
  rest = rest.subarray(pathEnd + 1);
  const stateEnd = rest.indexOf(0);
  if (stateEnd < 0) return null;
  const state = rest.subarray(0, stateEnd).toString('utf8');
  const text = rest.subarray(stateEnd + 1).toString('utf8');
  return { path, text: state === 'present' ? text : null };
}

/**
 * Validate the remote file's `[mcp_servers.<name>]` tables as registrations of `environmentId`
 * (scope `(environmentId, name)`, executing there). Bad TOML throws `ConfigParseError`, and an
 * `mcp_servers` that is not a table throws too; a bad server table fails alone, like locally.
 */
export function parseRemoteRegistrations(
  environmentId: string,
  file: string,
  text: string,
  /** What this machine's config lends them (default: nothing). */
  trust: RemoteTrust = NOTHING_LENT,
): EnvironmentRegistrations {
  const doc = parseToml(file, text);
  const ctx = new Context(file, createLocator(text));
  const top = new Sink(ctx);
  const root = new Fields(doc, [], (path, problem) => top.error(path, problem));
  const servers: ServerConfig[] = [];
  const invalidServers: InvalidServerConfig[] = [];
  const table = root.subTable('mcp_servers');
  const problem = top.firstError();
  if (problem !== undefined) throw new Error(problem.message);
  for (const [name, raw] of Object.entries(table?.table ?? {})) {
    const scope = { environmentId, name };
    const result = validateServer(ctx, scope, ['mcp_servers', name], raw, null, trust);
    if (result.server !== null) servers.push(result.server);
    if (result.invalid !== null) invalidServers.push(result.invalid);
  }
  return { file, servers, invalidServers, warnings: ctx.warnings };
}
