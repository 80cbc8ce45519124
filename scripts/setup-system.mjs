#!/usr/bin/env node
// The first step of `npm test`: make sure the system tools the suite needs are there
// (scripts/system/packages.mjs lists them). Missing ones are installed on Debian/Ubuntu when this
// runs as root or with passwordless sudo — `apt-get update` once, then `apt-get install -y` of
// only what is missing; anywhere else it stops at once, before any test runs, with one line per
// missing tool naming the package that provides it. `--check` only reports (exit 1 if anything is
// missing). Nothing is printed when everything is there.
//
// Nothing it runs comes from the caller's PATH or environment (npm puts node_modules/.bin of this
// checkout and of every folder above it first on PATH): apt-get, apt-cache, sudo and the rest are
// taken from /usr/sbin, /usr/bin, /sbin or /bin only, if root owns them and their folder and no one
// else may write them, and run with only PATH=/usr/sbin:/usr/bin:/sbin:/bin and
// DEBIAN_FRONTEND=noninteractive (scripts/system/packages.mjs: systemCommand). `--dry-run` goes as
// far as the commands it would run as root and prints them instead (exit 1 if anything is missing).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import {
  decide,
  missingLines,
  missingNeeds,
  packagesToInstall,
  pathLookup,
  readOsRelease,
  resolveSystemTool,
  systemCommand,
} from './system/packages.mjs';

const shown = (cmd) => [cmd.file, ...cmd.args].join(' ');

function run(cmd) {
  console.error(`setup-system: ${shown(cmd)}`);
  const result = spawnSync(cmd.file, cmd.args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: cmd.env,
  });
  if (result.status !== 0) {
    const why = result.error?.message ?? `exit ${result.status ?? result.signal}`;
    throw new Error(`setup-system: ${shown(cmd)} failed (${why})`);
  }
}

/** Whether passwordless sudo works, with sudo and true from the system folders only. */
function sudoWorks() {
  if (resolveSystemTool('sudo') === null) return false;
  let cmd;
  try {
    cmd = systemCommand('true', [], { sudo: true });
  } catch (error) {
    console.error(error.message);
    return false;
  }
  return spawnSync(cmd.file, cmd.args, { stdio: 'ignore', env: cmd.env }).status === 0;
}

function main(argv) {
  const check = argv.includes('--check');
  const dryRun = argv.includes('--dry-run');
  const unknown = argv.filter((a) => a !== '--check' && a !== '--dry-run');
  if (unknown.length > 0) {
    console.error(`setup-system: unknown argument ${unknown[0]} (usage: [--check | --dry-run])`);
    return 2;
  }
  const missing = missingNeeds(pathLookup());
  const isRoot = process.getuid?.() === 0;
  const decision = decide({
    missing,
    osRelease: readOsRelease(readFileSync),
    isRoot,
    sudo: !check && missing.length > 0 && !isRoot && sudoWorks(),
    aptGet: resolveSystemTool('apt-get') !== null,
    installAllowed: !check,
  });
  if (decision.action === 'none') return 0;
  if (decision.action === 'stop') {
    for (const line of decision.lines) console.error(line);
    return 1;
  }
  const asRoot = (args) => systemCommand('apt-get', args, { sudo: decision.sudo });
  const env = (cmd) => Object.entries(cmd.env).map(([k, v]) => `${k}=${v}`);
  const act = dryRun
    ? (cmd) =>
        console.error(`setup-system: would run ${shown(cmd)} (environment: ${env(cmd).join(' ')})`)
    : run;
  try {
    act(asRoot(['update']));
    const query = (pkg) => systemCommand('apt-cache', ['show', '--no-all-versions', pkg]);
    const known = (pkg) => {
      const cmd = query(pkg);
      return spawnSync(cmd.file, cmd.args, { stdio: 'ignore', env: cmd.env }).status === 0;
    };
    const packages = packagesToInstall(missing, known);
    console.error(
      `setup-system: ${dryRun ? 'would install' : 'installing'} ${packages.join(' ')} (missing: ${missing.map((n) => n.tool).join(', ')})`,
    );
    act(asRoot(['install', '-y', ...packages]));
  } catch (error) {
    for (const line of missingLines(missing)) console.error(line);
    console.error(error.message);
    return 1;
  }
  if (dryRun) {
    for (const line of missingLines(missing)) console.error(line);
    console.error('system packages: not installing them (--dry-run)');
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
