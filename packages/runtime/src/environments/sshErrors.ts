/**
 * The typed error of ssh environments. Every message names the environment (and, where it helps,
 * the destination) so a failure in status says which host to look at; `cause` keeps the original.
 */

export type SshEnvironmentErrorCode =
  | 'ssh_not_found'
  | 'connect_failed'
  | 'connect_timeout'
  | 'disconnected'
  | 'connection_lost'
  | 'closed'
  | 'forward_failed'
  | 'http_failed'
  | 'remote_config';

export class SshEnvironmentError extends Error {
  readonly code: SshEnvironmentErrorCode;
  readonly environmentId: string;

  constructor(
    code: SshEnvironmentErrorCode,
    environmentId: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SshEnvironmentError';
    this.code = code;
    this.environmentId = environmentId;
  }
}

/** The last meaningful lines of ssh's stderr, joined for a one-line message. */
export function sshStderrSummary(lines: readonly string[], max = 3): string {
  const useful = lines
    .map((l) => l.replace(/\r/g, '').trim())
    .filter((l) => l !== '' && !/^Warning: Permanently added/.test(l));
  return useful.slice(-max).join(' | ');
}
