// Which conformance scenarios to run: the framework's own listings (`conformance list`, also
// `--spec-version V` and `--requirements R`) turned into the scenarios, the ones that do not
// count (a requirement set's `not_scored`) and the wire version to run them at.
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { REQUIREMENTS_FRAMEWORK, requirementSets } from './toolchain.mjs';

const REPO_ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** A request the runner cannot carry out (exit 2), said in one line. */
export class UsageError extends Error {}

/** The framework's CLI, synchronously (listing). */
function framework(tools, args) {
  const run = spawnSync(tools.node, [tools.framework, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.status !== 0) {
    const why = `${run.stderr}${run.stdout}`.trim() || run.error?.message || `exit ${run.status}`;
    throw new UsageError(`conformance ${args.join(' ')}: ${why}`);
  }
  return run.stdout;
}

/** Names under the `Client scenarios` heading of `conformance list` output. */
export function clientScenarios(listing) {
  const out = [];
  let inClient = false;
  for (const line of listing.split('\n')) {
    if (/^Client scenarios/.test(line)) inClient = true;
    else if (/^\S/.test(line)) inClient = false;
    else if (inClient) {
      const m = /^ {2}- (\S+)/.exec(line);
      if (m) out.push(m[1]);
    }
  }
  return out;
}

/** `    - scenario [client]` lines of the not-scored part of `list --requirements`, with reasons. */
export function notScoredClientScenarios(listing) {
  const out = new Map();
  let reason = null;
  let inNotScored = false;
  for (const line of listing.split('\n')) {
    if (/^Run and reported, but never scored/.test(line)) inNotScored = true;
    else if (/^\S/.test(line)) inNotScored = false;
    else if (inNotScored) {
      const heading = /^ {2}(\S+) \(\d+\):$/.exec(line);
      if (heading) reason = heading[1];
      const m = /^ {4}- (\S+) \[client\]$/.exec(line);
      if (m) out.set(m[1], reason ?? 'not scored');
    }
  }
  return out;
}

/** Which scenarios to run, which of them count, and the wire to run them at. */
export function plan(tools, opts) {
  if (opts.requirements !== undefined) {
    const sets = requirementSets(tools.packageDir);
    if (!sets.includes(opts.requirements)) {
      throw new UsageError(
        sets.length === 0
          ? `framework ${tools.version} ships no requirement sets; use --version ${REQUIREMENTS_FRAMEWORK}`
          : `framework ${tools.version} has no requirement set ${opts.requirements} (it has ${sets.join(', ')})`,
      );
    }
    const listing = framework(tools, ['list', '--requirements', opts.requirements]);
    const required = clientScenarios(listing);
    const notScored = notScoredClientScenarios(listing);
    if (required.length === 0)
      throw new UsageError(
        `no client scenarios in requirement set ${opts.requirements}:\n${listing}`,
      );
    return {
      scenarios: opts.scoredOnly ? required : [...required, ...notScored.keys()],
      notScored: opts.scoredOnly ? new Map() : notScored,
      specVersion: opts.requirements,
      listing,
    };
  }
  const listArgs = [
    'list',
    '--client',
    ...(opts.specVersion ? ['--spec-version', opts.specVersion] : []),
  ];
  const listing = framework(tools, listArgs);
  const known = opts.specVersion
    ? clientScenarios(framework(tools, ['list', '--client']))
    : clientScenarios(listing);
  const applicable = clientScenarios(listing);
  if (known.length === 0)
    throw new UsageError(`the framework listed no client scenarios:\n${listing}`);
  for (const s of opts.scenarios)
    if (!known.includes(s)) throw new UsageError(`unknown scenario '${s}' (try --list)`);
  return {
    scenarios: opts.scenarios.length > 0 ? opts.scenarios : applicable,
    notScored: new Map(),
    specVersion: opts.specVersion,
    listing,
  };
}
