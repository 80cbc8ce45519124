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
