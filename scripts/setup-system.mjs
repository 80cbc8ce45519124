#!/usr/bin/env node
// The first step of `npm test`: make sure the system tools the suite needs are there
// (scripts/system/packages.mjs lists them). Missing ones are installed on Debian/Ubuntu when this
// runs as root or with passwordless sudo — `apt-get update` once, then `apt-get install -y` of
// only what is missing; anywhere else it stops at once, before any test runs, with one line per
// missing tool naming the package that provides it. `--check` only reports (exit 1 if anything is
// missing). Nothing is printed when everything is there.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import {
  decide,
  missingLines,
  missingNeeds,
  packagesToInstall,
  pathLookup,
  readOsRelease,
} from './system/packages.mjs';

function run(cmd, args, env) {
  console.error(`setup-system: ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env });
  if (result.status !== 0) {
    const why = result.error?.message ?? `exit ${result.status ?? result.signal}`;
    throw new Error(`${cmd} ${args.join(' ')} failed (${why})`);
  }
}

function main(argv) {
  const check = argv.includes('--check');
  const unknown = argv.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    console.error(`setup-system: unknown argument ${unknown[0]} (usage: [--check])`);
    return 2;
  }
  const lookup = pathLookup();
  const missing = missingNeeds(lookup);
  const decision = decide({
    missing,
    osRelease: readOsRelease(readFileSync),
    isRoot: process.getuid?.() === 0,
    sudo:
      !check &&
      missing.length > 0 &&
      lookup('sudo') &&
      spawnSync('sudo', ['-n', 'true']).status === 0,
    aptGet: lookup('apt-get'),
    installAllowed: !check,
  });
  if (decision.action === 'none') return 0;
  if (decision.action === 'stop') {
    for (const line of decision.lines) console.error(line);
    return 1;
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Through sudo, the variable goes on the command line: sudo may refuse to keep the environment.
  const as = (cmd, args) =>
    decision.sudo
      ? ['sudo', ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', cmd, ...args]]
      : [cmd, args];
  try {
    run(...as('apt-get', ['update']), env);
    const known = (pkg) =>
      spawnSync('apt-cache', ['show', '--no-all-versions', pkg], { stdio: 'ignore' }).status === 0;
    const packages = packagesToInstall(missing, known);
    console.error(
      `setup-system: installing ${packages.join(' ')} (missing: ${missing.map((n) => n.tool).join(', ')})`,
    );
    run(...as('apt-get', ['install', '-y', ...packages]), env);
  } catch (error) {
    for (const line of missingLines(missing)) console.error(line);
    console.error(`setup-system: ${error.message}`);
    return 1;
  }
  const still = missingNeeds(pathLookup());
  if (still.length > 0) {
    for (const line of missingLines(still)) console.error(line);
    console.error('setup-system: still missing after apt-get install');
    return 1;
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
