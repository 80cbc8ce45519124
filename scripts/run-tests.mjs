#!/usr/bin/env node
// Runs the Vitest suite and ends with one plain summary line, `Tests: N passed, M failed`
// (plus `, K skipped`), which CI reads. Exits with Vitest's own exit code; a run that executed no
// test at all fails.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const report = join(root, '.tmp', 'vitest-report.json');
mkdirSync(join(root, '.tmp'), { recursive: true });
rmSync(report, { force: true });
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const result = spawnSync(
  process.execPath,
  [
    vitest,
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);
let summary;
try {
  summary = JSON.parse(readFileSync(report, 'utf8'));
} catch {
  console.log('Tests: 0 passed, 1 failed (no vitest report was written)');
  process.exit(result.status || 1);
}
const passed = summary.numPassedTests ?? 0;
// A test file that fails to load, or whose hooks fail, may have no failed test of its own:
// count such a file as one failure.
const brokenFiles = (summary.testResults ?? []).filter(
  (file) =>
    file.status === 'failed' &&
    !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
).length;
const failed = (summary.numFailedTests ?? 0) + brokenFiles;
const skipped = (summary.numPendingTests ?? 0) + (summary.numTodoTests ?? 0);
console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (passed + failed === 0) process.exit(1);
process.exit(result.status ?? 1);
