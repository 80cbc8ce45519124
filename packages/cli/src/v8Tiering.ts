/**
 * V8's tier-up budget in the CLI's server processes, `mcprt app-server` and `mcprt serve`
 * (ADR 0026). V8 optimizes a function once it has run about `--interrupt-budget` bytes of
 * bytecode since its last check (67,584 in Node 20's V8): tuned for web pages, it leaves a tool
 * call's path in the interpreter for the first few hundred calls of a session — the calls an
 * agent makes. Right after the process's first tool call completes, these processes lower it to
 * `CALL_PATH_INTERRUPT_BUDGET`, so the call path is optimized within tens of calls. Not before:
 * with a low budget from the start, V8 optimizes the start-up code during the first call, which
 * then takes longer. The library never does this (its host owns its V8); the user can choose
 * another budget, or V8's own, with `MCPRT_V8_INTERRUPT_BUDGET`, or by passing
 * `--interrupt-budget` to node themselves.
 */

import { setFlagsFromString } from 'node:v8';

import type { Runtime } from '@mcprt/runtime';

/** The budget after the first call (bytes of bytecode between tier-up checks). */
export const CALL_PATH_INTERRUPT_BUDGET = 8192;
export const INTERRUPT_BUDGET_ENV = 'MCPRT_V8_INTERRUPT_BUDGET';
const MIN_BUDGET = 1024;
const MAX_BUDGET = 1_000_000;

/**
 * The budget to set after the first call, or null to leave V8's alone: `default` (or `0`), or a
 * `--interrupt-budget` the user gave node. A value that is not a budget
 * is a warning (naming the variable and the value) and the default applies.
 */
export function callPathBudget(
  env: NodeJS.ProcessEnv,
  execArgv: readonly string[],
  warn: (message: string) => void,
): number | null {
  // (NODE_OPTIONS cannot carry it: node refuses to start.)
  if (execArgv.some((arg) => /^--interrupt[-_]budget(=|$)/.test(arg))) return null;
  const raw = env[INTERRUPT_BUDGET_ENV]?.trim();
  if (raw === undefined || raw === '') return CALL_PATH_INTERRUPT_BUDGET;
  if (raw === 'default' || raw === '0') return null;
  const budget = Number(raw);
  if (Number.isInteger(budget) && budget >= MIN_BUDGET && budget <= MAX_BUDGET) return budget;
  warn(
    `${INTERRUPT_BUDGET_ENV}=${JSON.stringify(raw)} is not a budget (an integer from ${MIN_BUDGET} to ${MAX_BUDGET}, or "default"); using ${CALL_PATH_INTERRUPT_BUDGET}`,
  );
  return CALL_PATH_INTERRUPT_BUDGET;
}

/** Lower V8's tier-up budget once `runtime` has completed its first tool call. */
export function tierUpAfterFirstCall(
  runtime: Runtime,
  warn: (message: string) => void,
  env: NodeJS.ProcessEnv = process.env,
  execArgv: readonly string[] = process.execArgv,
): void {
  const budget = callPathBudget(env, execArgv, warn);
  if (budget === null) return;
  runtime.onFirstToolCall(() => setFlagsFromString(`--interrupt-budget=${budget}`));
}
