// The verdict of one conformance scenario, from what the framework left behind: its exit status,
// its log and the scenario's checks.json. It is the framework's own single-scenario verdict (any
// FAILURE or WARNING check, a timeout or a non-zero exit fails; see the framework's README), plus
// the "no vacuous pass" rule of strict mode: a scenario passes only when at least one check
// succeeded (a client that does nothing passes `initialize` with zero checks), and
// `auth/resource-mismatch` only when the client fetched the protected-resource metadata (a client
// without OAuth would otherwise pass it by never authorizing).

/**
 * @param {{ rc: number | null, log: string, checks: Array<{id?: string, status?: string,
 *   errorMessage?: string, description?: string}> | null, scenario: string, strict: boolean }} run
 */
export function verdict({ rc, log, checks, scenario, strict }) {
  const list = checks ?? [];
  const failed = list.filter((c) => c.status === 'FAILURE');
  const warned = list.filter((c) => c.status === 'WARNING');
  const notes = [];
  const exit = /Client exited with code (-?\d+)/.exec(log);
  if (exit) notes.push(`client-exit=${exit[1]}`);
  const timedOut = /Client timed out after/.test(log);
  if (timedOut) notes.push('timeout');
  if (checks === null) notes.push('no-checks.json');
  const succeeded = (id) => list.some((c) => c.id === id && c.status === 'SUCCESS');
  const vacuous =
    !list.some((c) => c.status === 'SUCCESS') ||
    (scenario === 'auth/resource-mismatch' && !succeeded('prm-pathbased-requested'));
  if (vacuous) notes.push('vacuous');
  const pass =
    rc === 0 &&
    checks !== null &&
    failed.length === 0 &&
    warned.length === 0 &&
    !(vacuous && strict);
  return {
    pass,
    failed: failed.length,
    warnings: warned.length,
    vacuous,
    notes,
    details: [...failed, ...warned].map(
      (c) => `    ${c.status} ${c.id}: ${c.errorMessage || c.description || ''}`,
    ),
  };
}

/** `PASS <scenario> (0 checks failed)` / `FAIL <scenario> (2 checks failed) warnings=1 timeout`. */
export function verdictLine(scenario, v) {
  let text = `${v.pass ? 'PASS' : 'FAIL'} ${scenario} (${v.failed} checks failed)`;
  if (v.warnings > 0) text += ` warnings=${v.warnings}`;
  if (v.notes.length > 0) text += ` ${v.notes.join(' ')}`;
  return text;
}
