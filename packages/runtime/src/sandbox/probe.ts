/**
 * The launcher capability probe: a path is a verified launcher only if running it as
 * `<path> sandbox --sandbox-state-json <state> -- <node> -e <print nonce>` prints the nonce and
 * exits 0 under a read-only, no-network state, and the same with a policy type nobody knows
 * exits non-zero without running the command (it fails closed). Each path is probed once per
 * process; the outcome (a promise) is cached, so concurrent first calls share one probe.
 *
 * The command's stdout is a regular file, not the socket Node gives a child for a piped stdio:
 * a launcher whose sandbox forbids socket writes (Codex's seccomp filter under a restricted
 * network does) would swallow the nonce written to a socket, and a good launcher would fail.
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PROBE_TIMEOUT_MS = 20_000;

/** Codex's current shape (what Codex's own `sandbox` subcommand parses): read-only, no network. */
const READ_ONLY_STATE = JSON.stringify({
  permissionProfile: {
    type: 'managed',
    file_system: {
      type: 'restricted',
      entries: [{ path: { type: 'special', value: { kind: 'root' } }, access: 'read' }],
    },
    network: 'restricted',
  },
  sandboxCwd: 'file:///',
});

/** A state no launcher can enforce: it must refuse to run the command. */
const UNKNOWN_STATE = JSON.stringify({
  permissionProfile: { type: 'mcprt-probe-unknown-profile' },
  sandboxCwd: 'file:///',
});

export interface ProbeOutcome {
  readonly ok: boolean;
  /** Why the probe failed (for logs and tests); null when it passed. */
  readonly reason: string | null;
}

interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly error: string | null;
}

function run(path: string, state: string, nonce: string): Promise<RunResult> {
  const args = [
    'sandbox',
    '--sandbox-state-json',
    state,
    '--',
    process.execPath,
    '-e',
    `process.stdout.write(${JSON.stringify(nonce)})`,
  ];
  const dir = mkdtempSync(join(tmpdir(), 'mcprt-probe-'));
  const outFile = join(dir, 'stdout');
  const fd = openSync(outFile, 'w', 0o600);
  const output = () => {
    try {
      return readFileSync(outFile, 'utf8').slice(0, 1 << 20);
    } catch {
      return '';
    }
  };
  return new Promise<RunResult>((resolve) => {
    let spawnError: string | null = null;
    const child = spawn(path, args, { cwd: '/', stdio: ['ignore', fd, 'ignore'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.once('error', (error) => (spawnError = error.message));
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code: spawnError === null ? code : null, stdout: output(), error: spawnError });
    });
  }).finally(() => {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });
}

async function probe(path: string): Promise<ProbeOutcome> {
  const nonce = `mcprt-probe-${randomBytes(8).toString('hex')}`;
  const good = await run(path, READ_ONLY_STATE, nonce);
  if (good.error !== null) return { ok: false, reason: `cannot run: ${good.error}` };
  if (good.code !== 0 || !good.stdout.includes(nonce)) {
    return {
      ok: false,
      reason: `did not run a command under a read-only state (exit ${String(good.code)})`,
    };
  }
  const refused = `mcprt-probe-${randomBytes(8).toString('hex')}`;
  const bad = await run(path, UNKNOWN_STATE, refused);
  if (bad.code === 0 || bad.stdout.includes(refused)) {
    return { ok: false, reason: 'ran a command under a state it cannot enforce' };
  }
  return { ok: true, reason: null };
}

const outcomes = new Map<string, Promise<ProbeOutcome>>();

/** The probe outcome for `path`: run on first request, then cached for the process. */
export function verifyLauncher(path: string): Promise<ProbeOutcome> {
  let outcome = outcomes.get(path);
  if (outcome === undefined) {
    outcome = probe(path).catch((error: unknown) => ({
      ok: false,
      reason: `cannot run: ${error instanceof Error ? error.message : String(error)}`,
    }));
    outcomes.set(path, outcome);
  }
  return outcome;
}
