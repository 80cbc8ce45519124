/**
 * Command-line parsing shared by every command: global options (`--home`, `--codex-home`,
 * `--strict`), per-command options through `node:util` parseArgs, and `UsageError` for bad input
 * (exit code 2). Arguments after a literal `--` are returned untouched (a server's own argv).
 */

import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

export interface GlobalOptions {
  readonly home?: string;
  readonly codexHome?: string;
  readonly strict: boolean;
}

/** Split `argv` at the first `--`: before it are options, after it a command line. */
export function splitAtDoubleDash(argv: readonly string[]): {
  head: string[];
  tail: string[] | null;
} {
  const i = argv.indexOf('--');
  return i < 0
    ? { head: [...argv], tail: null }
    : { head: argv.slice(0, i), tail: argv.slice(i + 1) };
}

type Options = NonNullable<ParseArgsConfig['options']>;

type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
>;

export function parse<O extends Options>(
  argv: readonly string[],
  options: O,
  command: string,
): Parsed<O> {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message}`);
  }
}

export const GLOBAL_OPTIONS = {
  home: { type: 'string' },
  'codex-home': { type: 'string' },
  strict: { type: 'boolean' },
} as const satisfies Options;

/** Pull global options from anywhere before `--`; return them and the remaining argv. */
export function extractGlobals(argv: readonly string[]): {
  globals: GlobalOptions;
  rest: string[];
} {
  const { head, tail } = splitAtDoubleDash(argv);
  const rest: string[] = [];
  let home: string | undefined;
  let codexHome: string | undefined;
  let strict = false;
  for (let i = 0; i < head.length; i++) {
    const arg = head[i]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    if (flag === '--home' || flag === '--codex-home') {
      const value = inline ?? head[++i];
      if (value === undefined || value === '') throw new UsageError(`${flag} needs a directory`);
      if (flag === '--home') home = value;
      else codexHome = value;
    } else if (flag === '--strict') {
      strict = true;
    } else {
      rest.push(arg);
    }
  }
  if (home !== undefined && codexHome !== undefined) {
    throw new UsageError('--home and --codex-home cannot be used together');
  }
  return {
    globals: {
      strict,
      ...(home !== undefined ? { home } : {}),
      ...(codexHome !== undefined ? { codexHome } : {}),
    },
    rest: tail === null ? rest : [...rest, '--', ...tail],
  };
}
