/**
 * Everything textual about talking to OpenSSH: the `ssh` argv for the control master, for the
 * multiplexed clients that run servers, and for control requests (`-O forward`, `-O exit`).
 *
 * Option order is the policy: ssh keeps the FIRST value it obtains for an option, command line
 * before `~/.ssh/config`. So options mcprt cannot work without (batch mode, the control socket)
 * come before the user's `ssh_options`, and mcprt's defaults (strict host-key checking,
 * keep-alives) come after them, where `ssh_options` can override them.
 */

import type { SshEnvironmentConfig } from '../config/types.js';

export { remoteLaunch, shQuote } from './posixLaunch.js';
export type { RemoteLaunch } from './posixLaunch.js';

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

/**
 * The remote command that ends a session's process group `pgid`: SIGTERM, then SIGKILL when it is
 * still there after `graceMs`, waiting up to a second more for it to be gone; exit 0 once it is
 * (or was never there), 1 if it is not. Falls back to the process alone where it leads no group.
 */
export function remoteKillScript(pgid: number, graceMs: number): string {
  if (!Number.isSafeInteger(pgid) || pgid <= 1) throw new RangeError(`bad remote pgid ${pgid}`);
  const ticks = Math.max(1, Math.ceil(graceMs / 50));
  return [
    `p=${pgid}; i=0`,
    'sig() { kill -s "$1" -- "-$p" 2>/dev/null || kill -s "$1" "$p" 2>/dev/null; }',
    'alive() { kill -0 -- "-$p" 2>/dev/null || kill -0 "$p" 2>/dev/null; }',
    'sig TERM || exit 0',
    'while alive; do',
    `  if [ "$i" -eq ${ticks} ]; then sig KILL; fi`,
    `  if [ "$i" -ge ${ticks + 20} ]; then exit 1; fi`,
    '  sleep 0.05 2>/dev/null || sleep 1',
    '  i=$((i + 1))',
    'done',
  ].join('\n');
}
