/**
 * The launcher capability probe: a path is a verified launcher only if running it as
 * `<path> sandbox --sandbox-state-json <state> -- <node> -e <print nonce>` prints the nonce and
 * exits 0 under a read-only, no-network state, and the same with a policy type nobody knows
 * exits non-zero without running the command (it fails closed).
 *
 * Before the probe, and again before every use, the launcher must be trustworthy where it lies
 * (issue #33, finding 4): the file and every folder on the way to it — those of the path as given
 * and those of its real path, up to `/` — must be owned by root or by the current user, and none
 * may be group- or world-writable (a folder writable by others would let them swap the file). A
 * folder with the sticky bit (`/tmp`) is the one exception: there only an entry's owner may
 * rename or remove it, and that owner is checked on the next step. Anything else is refused with
 * the reason, exactly as a failed probe is (the launcher is omitted).
 *
 * The outcome (a promise) is cached by the real file's identity — device, inode, size and mtime
 * (to the nanosecond) — so concurrent first calls share one probe, later calls probe nothing, and
 * a file replaced or modified after its probe (a new inode, size or mtime) is probed again.
 *
 * The command's stdout is a regular file, not the socket Node gives a child for a piped stdio:
 * a launcher whose sandbox forbids socket writes (Codex's seccomp filter under a restricted
 * network does) would swallow the nonce written to a socket, and a good launcher would fail.
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

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

/** What the trust check needs to know about one file or folder (from `fs.statSync`). */
export interface PathFacts {
  readonly path: string;
  readonly kind: 'file' | 'directory' | 'other';
  /** Owner's uid. */
  readonly uid: number;
  /** `st_mode` (permission, set-id and sticky bits; the type bits are ignored). */
  readonly mode: number;
}

const octal = (mode: number) => `0${(mode & 0o7777).toString(8)}`;

/**
 * Why `facts` make a launcher untrustworthy for the user `currentUid`, or null when they do not:
 * the owner is neither root nor that user, or it is writable by group or others (for a folder,
 * unless it has the sticky bit), or the launcher itself is not a regular file.
 */
export function trustProblem(
  facts: PathFacts,
  currentUid: number,
  role: 'launcher' | 'folder',
): string | null {
  const what = role === 'launcher' ? 'the launcher' : 'folder';
  if (role === 'launcher' && facts.kind !== 'file') return `${facts.path} is not a regular file`;
  if (role === 'folder' && facts.kind !== 'directory') return `${facts.path} is not a folder`;
  if (facts.uid !== 0 && facts.uid !== currentUid) {
    return `${what} ${facts.path} is owned by uid ${facts.uid}, not root or the current user (uid ${currentUid})`;
  }
  const writable = facts.mode & 0o022;
  if (writable !== 0 && !(role === 'folder' && (facts.mode & 0o1000) !== 0)) {
    const by = writable === 0o022 ? 'group and others' : writable === 0o020 ? 'group' : 'others';
    return `${what} ${facts.path} is writable by ${by} (mode ${octal(facts.mode)})`;
  }
  return null;
}

function factsOf(path: string): PathFacts {
  const st = statSync(path);
  return {
    path,
    kind: st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other',
    uid: st.uid,
    mode: st.mode,
  };
}

/** `path`'s folders, nearest first, up to and including `/`. */
function foldersOf(path: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    out.push(dir);
    if (dirname(dir) === dir) return out;
  }
}

/** The identity a verdict is cached under. */
type Identity = { readonly key: string } | { readonly problem: string };

/**
 * The launcher at `path` checked for trust (see the module comment), and the identity of the
 * real file it names: `${realPath} dev:ino:size:mtimeNs`.
 */
export function launcherIdentity(path: string, currentUid = process.getuid?.() ?? -1): Identity {
  try {
    const real = realpathSync(path);
    const folders = new Set([...foldersOf(resolve(path)), ...foldersOf(real)]);
    const launcherProblem = trustProblem(factsOf(real), currentUid, 'launcher');
    if (launcherProblem !== null) return { problem: `not trusted: ${launcherProblem}` };
    for (const folder of folders) {
      const problem = trustProblem(factsOf(folder), currentUid, 'folder');
      if (problem !== null) {
        return { problem: `not trusted: ${problem}, so others could replace the launcher` };
      }
    }
    const st = statSync(real, { bigint: true });
    return { key: `${real}\0${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}` };
  } catch (error) {
    return { problem: `cannot run: ${error instanceof Error ? error.message : String(error)}` };
  }
}

const outcomes = new Map<string, Promise<ProbeOutcome>>();

/**
 * The outcome for the launcher at `path`: refused when it is not trustworthy where it lies
 * (checked on every request), else its probe's, run on the first request for this very file and
 * cached for the process — a file replaced or modified since is probed again.
 */
export function verifyLauncher(path: string): Promise<ProbeOutcome> {
  const identity = launcherIdentity(path);
  if ('problem' in identity) return Promise.resolve({ ok: false, reason: identity.problem });
  let outcome = outcomes.get(identity.key);
  if (outcome === undefined) {
    outcome = probe(path).catch((error: unknown) => ({
      ok: false,
      reason: `cannot run: ${error instanceof Error ? error.message : String(error)}`,
    }));
    outcomes.set(identity.key, outcome);
  }
  return outcome;
}
