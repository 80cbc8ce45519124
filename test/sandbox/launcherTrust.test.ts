/**
 * Issue #33, finding 4: a launcher is used only when nobody but root and the current user can
 * change it — the file and every folder on its way from `/` — and its probe verdict belongs to
 * the very file probed (device, inode, size, mtime), so a launcher replaced or modified after
 * passing its probe is probed again. Launchers here are real scripts that log each invocation;
 * ownership by another user is tested through the pure check, given stat facts.
 */

import {
  chmodSync,
  existsSync,
  readFileSync,
  renameSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import {
  launcherIdentity,
  trustProblem,
  verifyLauncher,
} from '../../packages/runtime/src/sandbox/probe.js';
import { NODE, q, tempDir } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';
import { assertBubblewrapWorks, CLI, metaServer, receivedMeta } from './helpers.js';

const load = useRuntimes();
const STATE = { sandboxPolicy: { type: 'readOnly' } };
const GOOD = `exec ${q(NODE)} ${q(CLI)} "$@"`;
const UID = process.getuid!();

/** A launcher script in a fresh folder that logs each invocation to `log`, then runs `body`. */
function launcher(body: string, dir = tempDir('mcprt-trust-launcher-')) {
  const path = join(dir, 'codex');
  const log = join(dir, 'invocations.log');
  writeFileSync(path, script(body, log));
  chmodSync(path, 0o755);
  return { dir, path, log };
}
const script = (body: string, log: string) => `#!/bin/sh\necho "$*" >> ${q(log)}\n${body}\n`;
const invocations = (log: string): number =>
  existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0;

/** Replace `path` by a new file (a new inode) with `text`, as an attacker's rename would. */
function swap(path: string, text: string): void {
  writeFileSync(`${path}.new`, text, { mode: 0o755 });
  renameSync(`${path}.new`, path);
}

/** The launcher key a stdio server receives on one call of a fresh session. */
async function launcherSent(runtime: ReturnType<typeof load>): Promise<unknown> {
  const session = runtime.startSession({ sandboxState: STATE });
  const result = await session.callTool({ server: 'srv', tool: 'meta' });
  return receivedMeta(result)?.['codex/sandbox-launcher'];
}

describe('trustProblem (stat facts)', () => {
  const file = (uid: number, mode: number) => ({
    path: '/x/codex',
    kind: 'file' as const,
    uid,
    mode,
  });
  const folder = (uid: number, mode: number) => ({
    path: '/x',
    kind: 'directory' as const,
    uid,
    mode,
  });

  it('accepts root and the current user as owners, refuses anyone else', () => {
    expect(trustProblem(file(0, 0o755), 1000, 'launcher')).toBeNull();
    expect(trustProblem(file(1000, 0o700), 1000, 'launcher')).toBeNull();
    expect(trustProblem(file(1001, 0o755), 1000, 'launcher')).toBe(
      'the launcher /x/codex is owned by uid 1001, not root or the current user (uid 1000)',
    );
    expect(trustProblem(folder(1001, 0o755), 1000, 'folder')).toBe(
      'folder /x is owned by uid 1001, not root or the current user (uid 1000)',
    );
    // Running as root: another user's launcher is still refused.
    expect(trustProblem(file(1000, 0o755), 0, 'launcher')).toMatch(/owned by uid 1000/);
  });

  it('refuses a launcher or folder writable by group or others; a sticky folder is fine', () => {
    expect(trustProblem(file(0, 0o775), 0, 'launcher')).toBe(
      'the launcher /x/codex is writable by group (mode 0775)',
    );
    expect(trustProblem(file(0, 0o757), 0, 'launcher')).toMatch(/writable by others \(mode 0757\)/);
    expect(trustProblem(file(0, 0o1777), 0, 'launcher')).toMatch(/group and others/);
    expect(trustProblem(folder(0, 0o770), 0, 'folder')).toMatch(/folder \/x is writable by group/);
    expect(trustProblem(folder(0, 0o1777), 0, 'folder')).toBeNull(); // like /tmp
    expect(trustProblem(folder(1001, 0o1777), 0, 'folder')).toMatch(/owned by uid 1001/);
  });

  it('refuses a launcher that is not a regular file', () => {
    const dir = { path: '/x/codex', kind: 'directory' as const, uid: 0, mode: 0o755 };
    expect(trustProblem(dir, 0, 'launcher')).toBe('/x/codex is not a regular file');
  });
});

describe('verifyLauncher (real files)', () => {
  beforeAll(() => assertBubblewrapWorks());

  it('refuses a launcher of mode 0777 without running it, naming why', async () => {
    const l = launcher(GOOD);
    chmodSync(l.path, 0o777);
    const outcome = await verifyLauncher(l.path);
    expect(outcome.ok).toBe(false);
    expect(outcome.reason).toBe(
      `not trusted: the launcher ${l.path} is writable by group and others (mode 0777)`,
    );
    expect(invocations(l.log)).toBe(0);
  });

  it('refuses a launcher in a group-writable folder without running it, naming the folder', async () => {
    const l = launcher(GOOD);
    chmodSync(l.dir, 0o775);
    const outcome = await verifyLauncher(l.path);
    expect(outcome).toEqual({
      ok: false,
      reason: `not trusted: folder ${l.dir} is writable by group (mode 0775), so others could replace the launcher`,
    });
    expect(invocations(l.log)).toBe(0);
  });

  it('checks the folders of a symlink and of its target', async () => {
    const l = launcher(GOOD);
    const links = tempDir('mcprt-trust-links-');
    symlinkSync(l.path, join(links, 'codex'));
    chmodSync(l.dir, 0o757);
    expect((await verifyLauncher(join(links, 'codex'))).reason).toMatch(
      new RegExp(`folder ${l.dir} is writable by others`),
    );
    chmodSync(l.dir, 0o700);
    chmodSync(links, 0o777);
    expect((await verifyLauncher(join(links, 'codex'))).reason).toMatch(
      new RegExp(`folder ${links} is writable by group and others`),
    );
    expect(invocations(l.log)).toBe(0);
  });

  it('a launcher replaced after passing its probe is probed again, and the new one refused', async () => {
    const l = launcher(GOOD);
    const before = launcherIdentity(l.path, UID);
    expect(await verifyLauncher(l.path)).toEqual({ ok: true, reason: null });
    expect(await verifyLauncher(l.path)).toEqual({ ok: true, reason: null });
    expect(invocations(l.log)).toBe(2); // one probe: the good state, then the unknown one

    swap(l.path, script('exit 1', l.log)); // a new file renamed over the old one
    expect(launcherIdentity(l.path, UID)).not.toEqual(before);
    const outcome = await verifyLauncher(l.path);
    expect(outcome.ok).toBe(false);
    expect(outcome.reason).toMatch(/did not run a command under a read-only state/);
    expect(invocations(l.log)).toBe(3); // the new file was probed (and failed at once)
  });

  it('a launcher modified in place (same inode) is probed again', async () => {
    const l = launcher(GOOD);
    expect((await verifyLauncher(l.path)).ok).toBe(true);
    writeFileSync(l.path, script('shift 4\nexec "$@"', l.log)); // runs anything: not fail-closed
    utimesSync(l.path, new Date(), new Date(Date.now() + 5_000));
    const outcome = await verifyLauncher(l.path);
    expect(outcome).toEqual({ ok: false, reason: 'ran a command under a state it cannot enforce' });
    expect(invocations(l.log)).toBe(4);
  });
});

describe('sandbox_launcher through the runtime', () => {
  beforeAll(() => assertBubblewrapWorks());

  it('a world-writable launcher is never sent to a server, nor run', async () => {
    const l = launcher(GOOD);
    chmodSync(l.path, 0o777);
    const runtime = load(
      `sandbox_launcher = ${q(l.path)}\n` + metaServer('mcp_servers.srv', 'current'),
    );
    expect(await launcherSent(runtime)).toBeUndefined();
    expect(invocations(l.log)).toBe(0);
  });

  it('a launcher swapped for one that fails the probe stops being sent', async () => {
    const l = launcher(GOOD);
    const runtime = load(
      `sandbox_launcher = ${q(l.path)}\n` + metaServer('mcp_servers.srv', 'current'),
    );
    expect(await launcherSent(runtime)).toEqual({ codexExecutable: l.path });
    expect(await launcherSent(runtime)).toEqual({ codexExecutable: l.path });
    expect(invocations(l.log)).toBe(2);
    swap(l.path, script('exit 1', l.log));
    expect(await launcherSent(runtime)).toBeUndefined();
    expect(await launcherSent(runtime)).toBeUndefined();
    expect(invocations(l.log)).toBe(3); // the new file was probed once
  });
});
