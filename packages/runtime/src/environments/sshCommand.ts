/**
 * Everything textual about talking to OpenSSH: POSIX shell quoting, the remote command string for
 * one stdio server (`cd`, exports, `exec`), and the `ssh` argv for the control master, for the
 * multiplexed clients that run servers, and for control requests (`-O forward`, `-O exit`).
 *
 * Option order is the policy: ssh keeps the FIRST value it obtains for an option, command line
 * before `~/.ssh/config`. So options mcprt cannot work without (batch mode, the control socket)
 * come before the user's `ssh_options`, and mcprt's defaults (strict host-key checking,
 * keep-alives) come after them, where `ssh_options` can override them.
 */

import type { SshEnvironmentConfig } from '../config/types.js';
import type { StdioLaunchSpec } from './types.js';

/** Single-quote a value for a POSIX shell: every byte is literal except `'` itself. */
export function shQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Single-quote a value so the result is one line (newlines become `$__mcprt_nl`). */
function oneLineQuote(value: string): string {
  return shQuote(value).replaceAll('\n', `'"$__mcprt_nl"'`);
}

/** How one stdio server is started on the remote side. */
export interface RemoteLaunch {
  /** The command string for the remote login shell (it holds no variable values). */
  readonly command: string;
  /**
   * A line to write to the server's stdin before anything else: the shell reads and evaluates it
   * before `exec`, so forwarded values (tokens) never appear in any process's argv, here or on
   * the remote host. Null when nothing is forwarded.
   */
  readonly stdinPreamble: string | null;
}

/**
 * The remote side of one stdio server: change directory (exit 127 if it fails), read the
 * forwarded variables from the first stdin line (exports, and `env NAME=value` arguments for
 * names that are not shell identifiers), then `exec` the server so it replaces the shell. Every
 * value is single-quoted; the remote login shell must be POSIX (sh, bash, dash, ksh, zsh).
 */
export function remoteLaunch(spec: StdioLaunchSpec): RemoteLaunch {
  const lines: string[] = [];
  if (spec.cwd !== null) lines.push(`cd -- ${shQuote(spec.cwd)} || exit 127`);
  const exports: string[] = [];
  const viaEnv: string[] = [];
  for (const [name, value] of Object.entries(spec.env)) {
    if (SHELL_NAME.test(name)) exports.push(`export ${name}=${oneLineQuote(value)}`);
    else viaEnv.push(oneLineQuote(`${name}=${value}`));
  }
  const argv = [spec.command, ...spec.args].map(shQuote);
  if (exports.length === 0 && viaEnv.length === 0) {
    lines.push(['exec', ...argv].join(' '));
    return { command: lines.join('\n'), stdinPreamble: null };
  }
  lines.push('IFS= read -r __mcprt_env || exit 126', 'eval "$__mcprt_env"');
  lines.push(['exec', ...(viaEnv.length > 0 ? ['env', '"$@"'] : []), ...argv].join(' '));
  const preamble = [
    `__mcprt_nl=$(printf '\\n_'); __mcprt_nl=\${__mcprt_nl%_}`,
    ...exports,
    ...(viaEnv.length > 0 ? [`set -- ${viaEnv.join(' ')}`] : []),
  ].join('; ');
  return { command: lines.join('\n'), stdinPreamble: `${preamble}\n` };
}

/** `user@host:port` as people read it (port and user only when configured). */
export function destinationLabel(config: SshEnvironmentConfig): string {
  const user = config.user === null ? '' : `${config.user}@`;
  const port = config.port === null ? '' : `:${config.port}`;
  return `${user}${config.host}${port}`;
}

/** Options that apply to every ssh invocation of an environment, in precedence order. */
function commonArgs(config: SshEnvironmentConfig, controlPath: string): string[] {
  const mandatory = ['-o', 'BatchMode=yes', '-o', `ControlPath=${controlPath}`];
  const defaults = [
    '-o',
    'StrictHostKeyChecking=yes',
    '-o',
    'ConnectTimeout=15',
    '-o',
    'ServerAliveInterval=15',
    '-o',
    'ServerAliveCountMax=3',
    '-o',
    'ForwardAgent=no',
    '-o',
    'ForwardX11=no',
  ];
  if (config.identityFile !== null) defaults.push('-o', 'IdentitiesOnly=yes');
  const target: string[] = [];
  if (config.identityFile !== null) target.push('-i', config.identityFile);
  if (config.port !== null) target.push('-p', String(config.port));
  if (config.user !== null) target.push('-l', config.user);
  return [...mandatory, ...config.sshOptions, ...defaults, ...target];
}

/** The one connection of the environment: a foreground master that owns the control socket. */
export function masterArgs(
  config: SshEnvironmentConfig,
  controlPath: string,
  remote: string,
): string[] {
  return [
    '-o',
    'ControlMaster=yes',
    '-o',
    'ControlPersist=no',
    '-o',
    'ClearAllForwardings=yes',
    '-T',
    ...commonArgs(config, controlPath),
    '--',
    config.host,
    remote,
  ];
}

/**
 * A session multiplexed over the master. `ProxyCommand=false` makes ssh fail instead of quietly
 * opening a second connection when the control socket is gone.
 */
export function clientArgs(
  config: SshEnvironmentConfig,
  controlPath: string,
  remote: string,
): string[] {
  return [
    '-o',
    'ControlMaster=no',
    '-o',
    'ProxyCommand=false',
    '-o',
    'ClearAllForwardings=yes',
    '-T',
    ...commonArgs(config, controlPath),
    '--',
    config.host,
    remote,
  ];
}

/** Ask the master to listen on a local unix socket and forward it to `host:port` remotely. */
export function forwardArgs(
  config: SshEnvironmentConfig,
  controlPath: string,
  socketPath: string,
  host: string,
  port: number,
): string[] {
  const target = host.includes(':') ? `[${host}]` : host;
  return [
    '-O',
    'forward',
    '-L',
    `${socketPath}:${target}:${port}`,
    ...commonArgs(config, controlPath),
    '--',
    config.host,
  ];
}
