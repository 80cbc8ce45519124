/**
 * `mcprt sandbox --sandbox-state-json <state> -- <cmd> [args...]`: the launcher of the sandbox
 * contract (docs/sandbox.md). Turns the state into a plan, runs the command in bubblewrap (or as
 * is when the state grants full access or the host sandboxes already), passes the command's exit
 * status through (a signal death as 128+N), forwards termination signals, and kills the sandbox
 * when its own parent dies. Under every sandboxed policy, mcprt's own secrets are hidden from the
 * command (sandbox/secrets.ts). It fails closed: an unknown or unenforceable state, or missing
 * bubblewrap, exits 125 with one message on stderr and the command never starts.
 */

import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { constants } from 'node:os';
import { isAbsolute } from 'node:path';

import { parse, splitAtDoubleDash, UsageError } from '../args.js';
import type { Io } from '../io.js';
import { bwrapArgs, EMPTY_FD, findBwrap } from '../sandbox/bwrap.js';
import { SandboxRefusal } from '../sandbox/errors.js';
import type { SandboxPlan } from '../sandbox/plan.js';
import { hideProtected, protectedPaths } from '../sandbox/secrets.js';
import { planFromStateJson } from '../sandbox/state.js';

/** Exit status when the launcher itself refuses (as `env`, `timeout` and `docker run` do). */
export const SANDBOX_REFUSED_EXIT = 125;
const USAGE = 'usage: mcprt sandbox --sandbox-state-json <json> -- <cmd> [args...]';
const FORWARDED_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT'] as const;
const PARENT_POLL_MS = 200;

export async function sandboxCommand(argv: readonly string[], io: Io): Promise<number> {
  const { head, tail } = splitAtDoubleDash(argv);
  const { values, positionals } = parse(
    head,
    { 'sandbox-state-json': { type: 'string' } },
    'sandbox',
  );
  const state = values['sandbox-state-json'];
  if (state === undefined || positionals.length > 0 || tail === null || tail.length === 0) {
    throw new UsageError(USAGE);
  }
  const tmpdir = process.env['TMPDIR'];
  let plan: SandboxPlan;
  let program: string;
  let args: string[];
  try {
    plan = planFromStateJson(state, {
      cwd: process.cwd(),
      tmpdir: tmpdir !== undefined && isAbsolute(tmpdir) ? tmpdir : null,
    });
    if (plan.kind === 'unsandboxed') [program, ...args] = tail as [string, ...string[]];
    else {
      // mcprt's own secrets stay out of every sandbox, whatever the state grants.
      plan = hideProtected(plan, protectedPaths(process.env));
      [program, args] = [findBwrap(), bwrapArgs(plan, tail)];
    }
  } catch (error) {
    if (!(error instanceof SandboxRefusal)) throw error;
    io.err(`mcprt sandbox: ${error.message}; \`${tail[0] ?? ''}\` was not run`);
    return SANDBOX_REFUSED_EXIT;
  }
  return run(
    program,
    args,
    plan.kind === 'unsandboxed' ? { cwd: plan.cwd } : { emptyFd: true },
    io,
  );
}

function run(
  program: string,
  args: string[],
  how: { readonly cwd?: string; readonly emptyFd?: boolean },
  io: Io,
): Promise<number> {
  // bubblewrap reads the content of denied files from EMPTY_FD (/dev/null).
  const empty = how.emptyFd === true ? openSync('/dev/null', 'r') : null;
  const stdio: ('inherit' | number)[] = ['inherit', 'inherit', 'inherit'];
  if (empty !== null) stdio[EMPTY_FD] = empty;
  const child = spawn(program, args, { stdio, ...(how.cwd !== undefined ? { cwd: how.cwd } : {}) });
  const parent = process.ppid;
  const onSignal = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of FORWARDED_SIGNALS) process.on(signal, onSignal);
  // The sandbox dies with whoever started the launcher: bubblewrap's --die-with-parent covers
  // this process dying; this covers this process's parent dying.
  const watchdog = setInterval(() => {
    if (process.ppid !== parent) child.kill('SIGKILL');
  }, PARENT_POLL_MS);
  return new Promise((resolve) => {
    const done = (code: number) => {
      clearInterval(watchdog);
      for (const signal of FORWARDED_SIGNALS) process.off(signal, onSignal);
      if (empty !== null) closeSync(empty);
      resolve(code);
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      io.err(`mcprt sandbox: cannot run \`${program}\`: ${error.message}`);
      done(error.code === 'ENOENT' ? 127 : 126);
    });
    child.once('exit', (code, signal) => {
      done(signal !== null ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1));
    });
  });
}
