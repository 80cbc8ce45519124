#!/usr/bin/env node
// The newcomer path, as a CI step (.ci/run): clone this checkout's HEAD into an empty temporary
// folder — nothing beside it — and run the README's commands there, `npm ci && npm test`, with
// nothing from this checkout's environment (no npm_* variables, no node_modules, no build output).
// Then compare with this checkout: every test this checkout's Vitest collects (`vitest list`) must
// have run in the clone, none may be extra, and none may have failed. A test that needs something
// outside the repository fails or vanishes (its file fails to load) in the clone, so it fails here.
//
// Why the suite runs once, in the clone, rather than in both places: both trees hold the same
// commit, so a result can only differ through what is not in the repository — files beside the
// checkout, ignored build output, caches — which is exactly what the clone leaves out. The
// clone's run is therefore the stricter of the two; running the suite in the checkout as well
// would double CI time (≈ 5 min) to learn nothing the comparison with the checkout's test
// inventory does not. `--also-checkout` runs it there too and compares the two summaries.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const REPORT = join('.tmp', 'vitest-report.json');

/** This process's environment without what npm puts there for its own children. */
function cleanEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^npm_/i.test(k) && k !== 'INIT_CWD') env[k] = v;
  return env;
}

function sh(cmd, args, cwd, { capture = false } = {}) {
  console.error(`fresh-clone: (${cwd}) ${cmd} ${args.join(' ')}`);
  const run = spawnSync(cmd, args, {
    cwd,
    env: cleanEnv(),
    encoding: 'utf8',
    stdio: capture ? ['ignore', 'pipe', 'inherit'] : 'inherit',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout ?? '' };
}

/** `file :: describe > test` of every test in a Vitest JSON report, with its status. */
function reportTests(root) {
  const report = JSON.parse(readFileSync(join(root, REPORT), 'utf8'));
  const tests = [];
  for (const file of report.testResults ?? []) {
    const rel = relative(root, file.name);
    for (const t of file.assertionResults ?? [])
      tests.push({
        id: `${rel} :: ${[...t.ancestorTitles, t.title].join(' > ')}`,
        status: t.status,
      });
  }
  return { tests, summary: report };
}

/** `file :: describe > test` of every test `vitest list` collects in `root`. */
function listTests(root) {
  const out = join(mkdtempSync(join(tmpdir(), 'mcprt-vitest-list-')), 'list.json');
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const run = sh(process.execPath, [vitest, 'list', `--json=${out}`], root, { capture: true });
  if (run.status !== 0) throw new Error(`vitest list failed in ${root} (exit ${run.status})`);
  const listed = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(dirname(out), { recursive: true, force: true });
  return listed.map((t) => `${relative(root, t.file)} :: ${t.name}`);
}

function count(ids) {
  const m = new Map();
  for (const id of ids) m.set(id, (m.get(id) ?? 0) + 1);
  return m;
}

/** What differs between the checkout's inventory and the clone's results (empty: nothing). */
export function compare(listed, ran) {
  const problems = [];
  const want = count(listed);
  const got = count(ran.map((t) => t.id));
  for (const [id, n] of want)
    if ((got.get(id) ?? 0) < n) problems.push(`did not run in the clone: ${id}`);
  for (const [id, n] of got)
    if ((want.get(id) ?? 0) < n) problems.push(`ran only in the clone: ${id}`);
  for (const t of ran) if (t.status === 'failed') problems.push(`failed in the clone: ${t.id}`);
  return problems;
}

function main(argv) {
  const alsoCheckout = argv.includes('--also-checkout');
  const keep = argv.includes('--keep');
  const head = sh('git', ['rev-parse', 'HEAD'], REPO_ROOT, { capture: true }).stdout.trim();
  const dirty = sh('git', ['status', '--porcelain', '--untracked-files=no'], REPO_ROOT, {
    capture: true,
  }).stdout.trim();
  if (dirty !== '')
    console.error('fresh-clone: note: uncommitted changes are not in the clone (it tests HEAD)');
  const parent = mkdtempSync(join(tmpdir(), 'mcprt-fresh-'));
  const clone = join(parent, 'repo');
  let ok = false;
  try {
    if (sh('git', ['clone', '--quiet', '--no-hardlinks', REPO_ROOT, clone], parent).status !== 0)
      throw new Error('git clone failed');
    if (sh('git', ['checkout', '--quiet', '--detach', head], clone).status !== 0)
      throw new Error(`git checkout ${head} failed`);
    const beside = readdirSync(parent);
    if (beside.join() !== 'repo') throw new Error(`the clone is not alone: ${beside.join(', ')}`);

    // The README's commands, in the clone.
    const ci = sh('npm', ['ci', '--no-audit', '--no-fund'], clone);
    if (ci.status !== 0) throw new Error(`npm ci failed in the clone (exit ${ci.status})`);
    const test = sh('npm', ['test'], clone);
    let ran;
    try {
      ran = reportTests(clone);
    } catch {
      throw new Error(`npm test wrote no report in the clone (exit ${test.status})`);
    }

    // This checkout's inventory of tests (and, if asked, its own run).
    const listed = listTests(REPO_ROOT);
    const problems = compare(listed, ran.tests);
    if (alsoCheckout) {
      const own = sh(process.execPath, [join('scripts', 'run-tests.mjs')], REPO_ROOT);
      const mine = reportTests(REPO_ROOT);
      for (const key of ['numPassedTests', 'numFailedTests', 'numPendingTests'])
        if (mine.summary[key] !== ran.summary[key])
          problems.push(`${key}: checkout ${mine.summary[key]}, clone ${ran.summary[key]}`);
      if (own.status !== 0) problems.push(`the suite failed in the checkout (exit ${own.status})`);
    }
    const s = ran.summary;
    console.log(
      `fresh-clone: ${head.slice(0, 12)} in ${clone}: npm test exit ${test.status}; ` +
        `${s.numPassedTests} passed, ${s.numFailedTests} failed, ${s.numPendingTests} skipped; ` +
        `the checkout lists ${listed.length} tests`,
    );
    for (const p of problems) console.log(`fresh-clone: ${p}`);
    if (test.status !== 0 && problems.length === 0)
      problems.push(`npm test failed in the clone (exit ${test.status})`);
    ok = problems.length === 0;
    console.log(ok ? 'fresh-clone: same tests, all passed' : 'fresh-clone: FAILED');
    return ok ? 0 : 1;
  } catch (error) {
    console.error(`fresh-clone: ${error.message}`);
    return 1;
  } finally {
    if (ok && !keep) rmSync(parent, { recursive: true, force: true });
    else console.error(`fresh-clone: the clone is kept in ${clone}`);
  }
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) process.exitCode = main(process.argv.slice(2));
