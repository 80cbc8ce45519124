/**
 * Turns one validated server config plus its execution environment and the session's cwd into
 * a concrete launch plan (stdio spec or HTTP endpoint with headers). Every way a launch can be
 * impossible before anything runs (missing bearer variable, relative cwd in a remote
 * environment, HTTP in an exec environment) is reported here as a `LaunchPlanError`.
 */

import { isAbsolute, resolve } from 'node:path';

import type { ServerConfig } from '../config/types.js';
import type { ExecutionEnvironment, StdioLaunchSpec } from '../environments/types.js';
import { scopeLabel } from '../scope.js';
import { buildStdioEnv } from './childEnv.js';

export type LaunchPlan =
  | { readonly kind: 'stdio'; readonly spec: StdioLaunchSpec }
  | { readonly kind: 'http'; readonly url: string; readonly headers: Record<string, string> };

export class LaunchPlanError extends Error {}

export interface PlanContext {
  /** The session's cwd in this server's execution environment (may be null). */
  readonly environmentCwd: string | null;
  readonly processEnv: NodeJS.ProcessEnv;
}

export function planLaunch(
  config: ServerConfig,
  environment: ExecutionEnvironment,
  ctx: PlanContext,
): LaunchPlan {
  const t = config.transport;
  if (t.type === 'stdio') {
    const isLocal = environment.kind === 'local';
    return {
      kind: 'stdio',
      spec: {
        command: t.command,
        args: t.args,
        env: buildStdioEnv(t, isLocal, ctx.processEnv),
        cwd: isLocal ? localCwd(t.cwd, ctx.environmentCwd) : remoteCwd(config, environment, ctx),
      },
    };
  }
  const access = environment.http();
  if (access.kind === 'unsupported') throw new LaunchPlanError(access.reason);
  // Header names come from config: a Map, never `headers[name] = …`.
  const named = new Map(Object.entries(t.httpHeaders));
  for (const [header, varName] of Object.entries(t.envHttpHeaders)) {
    const value = ctx.processEnv[varName];
    if (value !== undefined && value.trim() !== '') named.set(header, value);
  }
  const headers: Record<string, string> = Object.fromEntries(named);
  if (t.bearerTokenEnvVar !== null) {
    const token = ctx.processEnv[t.bearerTokenEnvVar];
    const who = `Environment variable ${t.bearerTokenEnvVar} for MCP server '${scopeLabel(config.scope)}'`;
    if (token === undefined) throw new LaunchPlanError(`${who} is not set`);
    if (token.trim() === '') throw new LaunchPlanError(`${who} is empty`);
    headers['Authorization'] = `Bearer ${token}`;
  }
  return { kind: 'http', url: t.url, headers };
}

/** Local stdio: a relative cwd resolves against the session cwd (Codex #19031). */
function localCwd(serverCwd: string | null, sessionCwd: string | null): string | null {
  if (serverCwd === null) return sessionCwd;
  return isAbsolute(serverCwd) ? serverCwd : resolve(sessionCwd ?? process.cwd(), serverCwd);
}

/** Named environment: server cwd, else the environment's, else the session's; all absolute. */
function remoteCwd(
  config: ServerConfig,
  environment: ExecutionEnvironment,
  ctx: PlanContext,
): string {
  const label = scopeLabel(config.scope);
  const t = config.transport;
  const serverCwd = t.type === 'stdio' ? t.cwd : null;
  if (serverCwd !== null && !isAbsolute(serverCwd)) {
    throw new LaunchPlanError(
      `cwd \`${serverCwd}\` of MCP server \`${label}\` must be an absolute path in environment \`${environment.id}\``,
    );
  }
  const cwd = serverCwd ?? environment.defaultCwd ?? ctx.environmentCwd;
  if (cwd === null) {
    throw new LaunchPlanError(
      `stdio MCP server \`${label}\` in environment \`${environment.id}\` needs an absolute cwd: set \`cwd\` on the server or the environment, or give the session a cwd for that environment`,
    );
  }
  if (!isAbsolute(cwd)) {
    throw new LaunchPlanError(
      `cwd \`${cwd}\` for environment \`${environment.id}\` must be an absolute path (MCP server \`${label}\`)`,
    );
  }
  return cwd;
}
