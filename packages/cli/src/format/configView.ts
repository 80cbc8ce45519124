/**
 * How configured registrations are shown by `mcp list` and `mcp get`: a JSON shape with secrets
 * masked (literal `env` values and static header values are shown as `*****`), and plain-text
 * tables grouped by transport.
 */

import type { InvalidServerConfig, McprtConfig, ServerConfig } from '@mcprt/runtime';
import { scopeLabel } from '@mcprt/runtime';

export const MASK = '*****';

const mask = (record: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.keys(record).map((k) => [k, MASK]));

export function serverJson(s: ServerConfig) {
  const t = s.transport;
  return {
    name: s.scope.name,
    environmentId: s.scope.environmentId,
    executionEnvironmentId: s.executionEnvironmentId,
    enabled: s.enabled,
    required: s.required,
    transport:
      t.type === 'stdio'
        ? {
            type: t.type,
            command: t.command,
            args: t.args,
            env: mask(t.env),
            envVars: t.envVars,
            cwd: t.cwd,
          }
        : {
            type: t.type,
            url: t.url,
            bearerTokenEnvVar: t.bearerTokenEnvVar,
            httpHeaders: mask(t.httpHeaders),
            envHttpHeaders: t.envHttpHeaders,
          },
    startupTimeoutSec: s.startupTimeoutMs / 1000,
    toolTimeoutSec: s.toolTimeoutMs / 1000,
    protocolVersion: s.protocolVersion,
    enabledTools: s.enabledTools,
    disabledTools: s.disabledTools,
    location: `${s.location.file}:${s.location.line}:${s.location.column}`,
  };
}

export function invalidJson(s: InvalidServerConfig) {
  return {
    name: s.scope.name,
    environmentId: s.scope.environmentId,
    enabled: s.enabled,
    error: s.error,
    problems: s.diagnostics.map((d) => d.message),
  };
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const envLabel = (s: { scope: { environmentId: string | null } }) => s.scope.environmentId ?? '-';

export function renderConfigList(config: McprtConfig): string {
  const stdio = config.servers.filter((s) => s.transport.type === 'stdio');
  const http = config.servers.filter((s) => s.transport.type === 'streamable_http');
  const parts: string[] = [];
  if (stdio.length > 0) {
    const rows = [['Name', 'Environment', 'Runs in', 'Command', 'Args', 'Env', 'Cwd', 'Status']];
    for (const s of stdio) {
      const t = s.transport.type === 'stdio' ? s.transport : null;
      rows.push([
        s.scope.name,
        envLabel(s),
        s.executionEnvironmentId,
        t!.command,
        t!.args.join(' ') || '-',
        Object.keys(t!.env)
          .map((k) => `${k}=${MASK}`)
          .join(', ') || '-',
        t!.cwd ?? '-',
        s.enabled ? 'enabled' : 'disabled',
      ]);
    }
    parts.push(table(rows));
  }
  if (http.length > 0) {
    const rows = [['Name', 'Environment', 'Runs in', 'Url', 'Bearer Token Env Var', 'Status']];
    for (const s of http) {
      const t = s.transport.type === 'streamable_http' ? s.transport : null;
      rows.push([
        s.scope.name,
        envLabel(s),
        s.executionEnvironmentId,
        t!.url,
        t!.bearerTokenEnvVar ?? '-',
        s.enabled ? 'enabled' : 'disabled',
      ]);
    }
    parts.push(table(rows));
  }
  if (config.invalidServers.length > 0) {
    const rows = [['Name', 'Environment', 'Error']];
    for (const s of config.invalidServers) rows.push([s.scope.name, envLabel(s), s.error]);
    parts.push(`Invalid:\n${table(rows)}`);
  }
  return `${parts.join('\n\n')}\n`;
}

export function renderServerDetails(s: ServerConfig): string {
  const t = s.transport;
  const lines = [
    scopeLabel(s.scope),
    `  environment: ${s.scope.environmentId ?? '(thread-wide)'}`,
    `  runs in: ${s.executionEnvironmentId}`,
    `  enabled: ${s.enabled}`,
    `  required: ${s.required}`,
    `  transport: ${t.type}`,
  ];
  if (t.type === 'stdio') {
    lines.push(
      `  command: ${t.command}`,
      `  args: ${t.args.join(' ') || '-'}`,
      `  cwd: ${t.cwd ?? '-'}`,
    );
    lines.push(
      `  env: ${
        Object.keys(t.env)
          .map((k) => `${k}=${MASK}`)
          .join(', ') || '-'
      }`,
    );
    lines.push(
      `  env_vars: ${t.envVars.map((v) => (v.source ? `${v.name} (${v.source})` : v.name)).join(', ') || '-'}`,
    );
  } else {
    lines.push(`  url: ${t.url}`, `  bearer_token_env_var: ${t.bearerTokenEnvVar ?? '-'}`);
    lines.push(
      `  http_headers: ${
        Object.keys(t.httpHeaders)
          .map((k) => `${k}=${MASK}`)
          .join(', ') || '-'
      }`,
    );
    lines.push(
      `  env_http_headers: ${
        Object.entries(t.envHttpHeaders)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ') || '-'
      }`,
    );
  }
  lines.push(
    `  startup_timeout_sec: ${s.startupTimeoutMs / 1000}`,
    `  tool_timeout_sec: ${s.toolTimeoutMs / 1000}`,
    `  protocol_version: ${s.protocolVersion}`,
  );
  if (s.enabledTools) lines.push(`  enabled_tools: ${s.enabledTools.join(', ')}`);
  if (s.disabledTools) lines.push(`  disabled_tools: ${s.disabledTools.join(', ')}`);
  lines.push(`  defined at: ${s.location.file}:${s.location.line}:${s.location.column}`);
  return `${lines.join('\n')}\n`;
}
