#!/usr/bin/env node
// `npm run conformance [-- options] [scenario ...]`: the official MCP client conformance scenarios
// (@modelcontextprotocol/conformance) against a client command, by default the runtime's own
// conformance client (test/conformance/client.mjs, on the built packages). Each scenario runs on
// its own (`conformance client --scenario`, the framework's strictest verdict: FAILURE and
// WARNING checks, timeouts and client exit codes all count), several at a time, each bounded by a
// guard that kills its whole process group. Node 22 and the framework are installed into a cache
// outside the repository on first use (scripts/conformance/toolchain.mjs).
//
// Output: one line per scenario, `PASS <scenario> (0 checks failed)` or
// `FAIL <scenario> (<n> checks failed)[ warnings=<w>][ client-exit=<c>][ timeout][ vacuous]`
// (`[ retried-alone]` with --retry, plus a `retried <scenario> alone after: …` line), then
// `N passed, M failed`. Exit status 0 iff every scored scenario passed; 2 for usage errors.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, cpSync, mkdirSync, mkdtempSync, openSync } from 'node:fs';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import {
  DEFAULT_FRAMEWORK,
  ensureToolchain,
  REQUIREMENTS_FRAMEWORK,
  ToolchainError,
} from './conformance/toolchain.mjs';
import { plan, UsageError } from './conformance/scenarios.mjs';
import { verdict, verdictLine } from './conformance/verdict.mjs';

const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const DEFAULT_CLIENT = 'node test/conformance/client.mjs';
/** More failures than this are not a loaded machine: --retry leaves them failed. */
const MAX_RETRIES = 2;
/** The protocol revisions the default framework (0.1.16) knows for --spec-version. */
const DEFAULT_FRAMEWORK_SPEC_VERSIONS = [
  '2025-03-26',
  '2025-06-18',
  '2025-11-25',
  'draft',
  'extension',
];

const USAGE = `Usage: npm run conformance -- [options] [scenario ...]

  [scenario ...]          client scenarios to run (default: all the framework lists, or those
                          applicable at --spec-version, or those --requirements names)
  --client '<command>'    the client under test (default: '${DEFAULT_CLIENT}'); run from the
                          repository root with the scenario URL appended, env
                          MCP_CONFORMANCE_SCENARIO / MCP_CONFORMANCE_CONTEXT (and
                          MCP_CONFORMANCE_PROTOCOL_VERSION with --spec-version)
  --version X             framework version (default $CONFORMANCE_VERSION, else ${DEFAULT_FRAMEWORK};
                          ${REQUIREMENTS_FRAMEWORK} with --requirements or a --spec-version that
                          ${DEFAULT_FRAMEWORK} does not know, such as 2026-07-28)
  --spec-version V        run every scenario at protocol revision V (--spec-version V --force)
  --requirements R        exactly what revision R requires of a client (requirements/R.yaml of
                          the framework), each at R's wire; the set's not-scored scenarios also
                          run and are reported, but do not decide the exit status
  --scored-only           with --requirements: leave the set's not-scored scenarios out
  --strict                no vacuous pass: a scenario without any SUCCESS check fails (and
                          auth/resource-mismatch without the client fetching the PRM)
  -j, --jobs N            scenarios at a time (default 4; 1 for timing-sensitive runs)
  -t, --timeout MS        per-scenario client timeout given to the framework (default 30000)
  -o, --out DIR           keep results here (default: a fresh temporary folder, printed)
  -r, --retry             re-run a failed scenario once more, alone, when at most ${MAX_RETRIES}
                          failed (timing-sensitive scenarios such as sse-retry can miss their
                          window on a loaded machine); its line then says \`retried-alone\`
                          and the first run's verdict is printed as \`retried <scenario> alone
                          after: …\`
  -v, --verbose           print the FAILURE/WARNING checks of each failing scenario
  -l, --list              list the client scenarios (of --spec-version / --requirements) and exit

Environment: CONFORMANCE_VERSION (framework version), CONFORMANCE_CACHE (cache folder; default
~/.cache/mcprt-conformance).`;

function options(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      client: { type: 'string' },
      version: { type: 'string' },
      'spec-version': { type: 'string' },
      requirements: { type: 'string' },
      'scored-only': { type: 'boolean' },
      strict: { type: 'boolean' },
      jobs: { type: 'string', short: 'j' },
      timeout: { type: 'string', short: 't' },
      out: { type: 'string', short: 'o' },
      verbose: { type: 'boolean', short: 'v' },
      retry: { type: 'boolean', short: 'r' },
      list: { type: 'boolean', short: 'l' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const int = (name, fallback, min) => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min)
      throw new UsageError(`--${name} must be an integer ≥ ${min}`);
    return n;
  };
  if (values.requirements !== undefined && values['spec-version'] !== undefined)
    throw new UsageError(
      'give --requirements or --spec-version, not both (a requirement set fixes the wire)',
    );
  if (values.requirements !== undefined && positionals.length > 0)
    throw new UsageError(
      'give --requirements or scenario names, not both (a requirement set names the scenarios)',
    );
  if (values['scored-only'] && values.requirements === undefined)
    throw new UsageError('--scored-only needs --requirements (only a requirement set scores)');
  // Without a version: the default framework, unless what is asked for needs the newer one.
  const needsNewer =
    values.requirements !== undefined ||
    (values['spec-version'] !== undefined &&
      !DEFAULT_FRAMEWORK_SPEC_VERSIONS.includes(values['spec-version']));
  const version =
    values.version ??
    (process.env.CONFORMANCE_VERSION || undefined) ??
    (needsNewer ? REQUIREMENTS_FRAMEWORK : DEFAULT_FRAMEWORK);
  return {
    help: values.help === true,
    list: values.list === true,
    client: values.client ?? DEFAULT_CLIENT,
    version,
    specVersion: values['spec-version'],
    requirements: values.requirements,
    scoredOnly: values['scored-only'] === true,
    strict: values.strict === true,
    jobs: int('jobs', 4, 1),
    timeoutMs: int('timeout', 30_000, 1000),
    out: values.out,
    verbose: values.verbose === true,
    retry: values.retry === true,
    scenarios: positionals,
  };
}

// The framework runs `sh -c "<command> <url>"` and on timeout kills only that shell; with dash
// the client survives and keeps the framework waiting. A simple command gets `exec`, so the
// kill reaches the client; anything else is bounded by the guard below.
const SIMPLE = /^[A-Za-z0-9_./@:+,%=-]+( [A-Za-z0-9_./@:+,%=-]+)*$/;
export function runCommand(client) {
  return SIMPLE.test(client) && !client.split(' ')[0].includes('=') ? `exec ${client}` : client;
}

const running = new Set();

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // gone
  }
}

/** One scenario in its own process group; resolves with its verdict. */
function runScenario(tools, opts, scenario, specVersion, outDir) {
  const dir = join(outDir, scenario.replaceAll('/', '__'));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'raw'), { recursive: true });
  const logFile = join(dir, 'runner.log');
  const fd = openSync(logFile, 'w');
  const args = [
    tools.framework,
    'client',
    '--command',
    runCommand(opts.client),
    '--scenario',
    scenario,
    '--timeout',
    String(opts.timeoutMs),
    ...(specVersion ? ['--spec-version', specVersion, '--force'] : []),
    '-o',
    join(dir, 'raw'),
  ];
  const guardMs = opts.timeoutMs + 60_000;
  return new Promise((resolve) => {
    const child = spawn(tools.node, args, {
      cwd: REPO_ROOT,
      // Node 22 keeps the framework's compiled code here between scenarios (a third of its
      // start-up); the client, on its own Node, ignores the variable before Node 22.1.
      env: { ...process.env, NODE_COMPILE_CACHE: tools.compileCache },
      detached: true,
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    running.add(child.pid);
    let guarded = false;
    const guard = setTimeout(() => {
      guarded = true;
      killGroup(child.pid, 'SIGTERM');
      setTimeout(() => killGroup(child.pid, 'SIGKILL'), 10_000).unref();
    }, guardMs);
    const finish = (rc) => {
      clearTimeout(guard);
      // Whatever the framework left in its group (a client that ignored the kill) goes too.
      killGroup(child.pid, 'SIGKILL');
      running.delete(child.pid);
      if (guarded)
        writeFileSync(
          logFile,
          `\nClient timed out after ${guardMs / 1000}s (runner killed by guard)\n`,
          { flag: 'a' },
        );
      let checks = null;
      const found = readdirSync(join(dir, 'raw'), { recursive: true }).find((f) =>
        String(f).endsWith('checks.json'),
      );
      if (found !== undefined) {
        const from = dirname(join(dir, 'raw', String(found)));
        cpSync(from, dir, { recursive: true });
        try {
          checks = JSON.parse(readFileSync(join(dir, 'checks.json'), 'utf8'));
        } catch {
          checks = null;
        }
      }
      const v = verdict({
        rc,
        log: readFileSync(logFile, 'utf8'),
        checks,
        scenario,
        strict: opts.strict,
      });
      writeFileSync(join(dir, 'failed-checks.txt'), v.details.map((d) => `${d}\n`).join(''));
      resolve(v);
    };
    child.once('error', () => finish(null));
    child.once('exit', (code, signal) => finish(signal ? null : code));
  });
}

/**
 * --retry: each failed scenario once more, alone (one at a time), when at most MAX_RETRIES
 * failed; its verdict is then the second run's, noted `retried-alone`. Returns the lines that
 * say what the first runs were.
 */
async function retryAlone(tools, opts, work, verdicts, outDir) {
  const failed = work.scenarios.filter((s) => !verdicts.get(s).pass);
  if (failed.length === 0 || failed.length > MAX_RETRIES) return [];
  const lines = [];
  for (const s of failed) {
    const first = verdicts.get(s);
    console.error(`  re-running ${s} alone`);
    const again = await runScenario(tools, opts, s, work.specVersion, join(outDir, 'retried'));
    verdicts.set(s, { ...again, notes: [...again.notes, 'retried-alone'] });
    lines.push(`retried ${s} alone after: ${verdictLine(s, first)}`);
  }
  return lines;
}

async function main(argv) {
  let opts;
  try {
    opts = options(argv);
  } catch (error) {
    console.error(`conformance: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (opts.help) {
    console.log(USAGE);
    return 0;
  }
  let tools;
  let work;
  try {
    tools = ensureToolchain(opts.version, { log: (l) => console.error(l) });
    work = plan(tools, opts);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof ToolchainError)) throw error;
    console.error(`conformance: ${error.message}`);
    return 2;
  }
  if (opts.list) {
    console.log(work.listing.trimEnd());
    return 0;
  }
  const outDir = opts.out ?? mkdtempSync(join(tmpdir(), 'mcprt-conformance-'));
  mkdirSync(outDir, { recursive: true });
  const nodeVersion = spawnSync(tools.node, ['-v'], { encoding: 'utf8' }).stdout.trim();
  const what = opts.requirements ? `requirement set ${opts.requirements}, ` : '';
  console.error(
    `conformance: framework ${tools.version}, node ${nodeVersion}, ${what}` +
      `${work.scenarios.length} scenario(s)${work.specVersion ? ` at ${work.specVersion}` : ''}` +
      `${opts.strict ? ', strict' : ''}, results in ${outDir}`,
  );
  const stop = (signal) => {
    for (const pid of running) killGroup(pid, 'SIGKILL');
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  const verdicts = new Map();
  const queue = [...work.scenarios];
  const worker = async () => {
    for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
      console.error(`  running ${s}`);
      verdicts.set(s, await runScenario(tools, opts, s, work.specVersion, outDir));
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.jobs, queue.length) }, worker));
  const retried = opts.retry ? await retryAlone(tools, opts, work, verdicts, outDir) : [];

  let passed = 0;
  let failed = 0;
  let extraRun = 0;
  let extraFailed = 0;
  for (const s of work.scenarios) {
    const v = verdicts.get(s);
    const reason = work.notScored.get(s);
    console.log(verdictLine(s, v) + (reason ? ` not-scored=${reason}` : ''));
    if (!v.pass && opts.verbose && v.details.length > 0) console.log(v.details.join('\n'));
    if (reason) {
      extraRun += 1;
      if (!v.pass) extraFailed += 1;
    } else if (v.pass) passed += 1;
    else failed += 1;
  }
  for (const line of retried) console.log(line);
  console.log(`${passed} passed, ${failed} failed`);
  if (work.notScored.size > 0)
    console.log(`not scored for ${opts.requirements}: ${extraRun} run, ${extraFailed} failed`);
  return failed === 0 ? 0 : 1;
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(
        `conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      process.exit(1);
    },
  );
}
