// Types of verdict.mjs for the tests that import it.
export interface Check {
  readonly id?: string;
  readonly status?: string;
  readonly errorMessage?: string;
  readonly description?: string;
}
export interface Verdict {
  readonly pass: boolean;
  readonly failed: number;
  readonly warnings: number;
  readonly vacuous: boolean;
  readonly notes: readonly string[];
  readonly details: readonly string[];
}
export function verdict(run: {
  rc: number | null;
  log: string;
  checks: readonly Check[] | null;
  scenario: string;
  strict: boolean;
}): Verdict;
export function verdictLine(scenario: string, verdict: Verdict): string;
