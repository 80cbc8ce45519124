/**
 * Starting one stdio server through a POSIX shell on the executor's side (an ssh login shell, or
 * `sh -c` behind an exec prefix such as `docker exec -i ctr`): the command string (`cd`, read the
 * forwarded variables from the first stdin line, `exec`) and that stdin line. Forwarded values
 * (tokens) are only ever written to the server's stdin, so they never appear in any process's
 * argv, on this machine or the executor — where any local user could read them (`ps`,
 * `/proc/<pid>/cmdline`).
 */

import type { StdioLaunchSpec } from './types.js';

/** Single-quote a value for a POSIX shell: every byte is literal except `'` itself. */
export function shQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Runs its operand as a program whatever its name (`-x`, `a=b`): priority unchanged. */
const NICE = ['nice', '-n', '0', '--'];

/** Single-quote a value so the result is one line (newlines become `$__mcprt_nl`). */
function oneLineQuote(value: string): string {
  return shQuote(value).replaceAll('\n', `'"$__mcprt_nl"'`);
}

/** How one stdio server is started on the executor's side. */
export interface RemoteLaunch {
  /** The command string for the executor's POSIX shell (it holds no variable values). */
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
  // A command named like an option (`-x`) would be read as one by bash's `exec`, and dash's
  // `exec` takes no `--`: run it through `env --`. After `NAME=value` arguments, env already
  // takes the next argument as the command. But env reads any argument holding `=` as one more
  // assignment (`a=b/prog`), so such a command is run through `nice -n 0 --` (POSIX, execs its
  // operand as is, changes nothing): a shell in between would drop the non-identifier names.
  const hasEq = spec.command.includes('=');
  const dash = spec.command.startsWith('-');
  const asCommand = dash ? (hasEq ? NICE : ['env', '--']) : [];
  if (exports.length === 0 && viaEnv.length === 0) {
    lines.push(['exec', ...asCommand, ...argv].join(' '));
    return { command: lines.join('\n'), stdinPreamble: null };
  }
  lines.push('IFS= read -r __mcprt_env || exit 126', 'eval "$__mcprt_env"');
  const runner = viaEnv.length > 0 ? ['env', '"$@"', ...(hasEq ? NICE : [])] : asCommand;
  lines.push(['exec', ...runner, ...argv].join(' '));
  const preamble = [
    `__mcprt_nl=$(printf '\\n_'); __mcprt_nl=\${__mcprt_nl%_}`,
    ...exports,
    ...(viaEnv.length > 0 ? [`set -- ${viaEnv.join(' ')}`] : []),
  ].join('; ');
  return { command: lines.join('\n'), stdinPreamble: `${preamble}\n` };
}
