/** Unit tests: sandbox state JSON → plan, for both shapes (no processes). */

import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { SandboxRefusal } from './errors.js';
import { MINIMAL_PATHS } from './plan.js';
import { planFromStateJson } from './state.js';

const ctx = { cwd: '/launcher/cwd', tmpdir: '/var/tmp/me' };
const plan = (state: unknown) => planFromStateJson(JSON.stringify(state), ctx);

describe('sandboxPolicy', () => {
  it('readOnly: root readable, no network unless networkAccess', () => {
    expect(plan({ sandboxPolicy: { type: 'readOnly' }, sandboxCwd: '/w' })).toEqual({
      kind: 'bwrap',
      rules: [{ path: '/', access: 'read', origin: 'sandboxPolicy (readOnly)' }],
      network: false,
      cwd: '/w',
    });
    expect(plan({ sandboxPolicy: { type: 'readOnly', networkAccess: true } })).toMatchObject({
      network: true,
      cwd: '/launcher/cwd',
    });
  });

  it('workspaceWrite: cwd, writable roots, /tmp and $TMPDIR writable; .git protected', () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'mcprt-plan-')));
    mkdirSync(join(cwd, '.git'));
    const result = plan({
      sandboxPolicy: { type: 'workspaceWrite', writableRoots: ['/data'] },
      sandboxCwd: cwd,
    });
    expect(result.kind === 'bwrap' && result.rules.map((r) => `${r.access} ${r.path}`)).toEqual([
      'read /',
      `write ${cwd}`,
      `read ${cwd}/.git`,
      'write /data',
      'write /tmp',
      'write /var/tmp/me',
    ]);
    const excluded = plan({
      sandboxPolicy: { type: 'workspaceWrite', excludeSlashTmp: true, excludeTmpdirEnvVar: true },
      sandboxCwd: '/w',
    });
    expect(excluded.kind === 'bwrap' && excluded.rules.map((r) => r.path)).toEqual(['/', '/w']);
  });

  it('dangerFullAccess and externalSandbox are unsandboxed', () => {
    expect(plan({ sandboxPolicy: { type: 'dangerFullAccess' } })).toEqual({
      kind: 'unsandboxed',
      policy: 'dangerFullAccess',
      cwd: '/launcher/cwd',
    });
    expect(
      plan({ sandboxPolicy: { type: 'externalSandbox', networkAccess: 'enabled' } }),
    ).toMatchObject({ kind: 'unsandboxed', policy: 'externalSandbox' });
    expect(() =>
      plan({ sandboxPolicy: { type: 'externalSandbox', networkAccess: true } }),
    ).toThrowError(/unknown sandboxPolicy\.networkAccess boolean true/);
  });
});

describe('permissionProfile', () => {
  const profile = (entries: unknown[], extra: object = {}) => ({
    permissionProfile: {
      type: 'managed',
      file_system: { type: 'restricted', entries },
      network: 'restricted',
    },
    sandboxCwd: 'file:///home/me/project',
    ...extra,
  });
  const special = (kind: string, access: string, more: object = {}) => ({
    path: { type: 'special', value: { kind, ...more } },
    access,
  });

  it("Codex's example: root read, project_roots write, cwd from a file URL", () => {
    const result = plan(profile([special('root', 'read'), special('project_roots', 'write')]));
    expect(result).toEqual({
      kind: 'bwrap',
      rules: [
        { path: '/', access: 'read', origin: 'permissionProfile.file_system.entries[0]' },
        {
          path: '/home/me/project',
          access: 'write',
          origin: 'permissionProfile.file_system.entries[1]',
        },
      ],
      network: false,
      cwd: '/home/me/project',
    });
  });

  it('minimal, tmpdir, slash_tmp, subpath and plain paths', () => {
    const result = plan(
      profile([
        special('minimal', 'read'),
        special('tmpdir', 'write'),
        special('slash_tmp', 'deny'),
        special('project_roots', 'write', { subpath: 'a/b' }),
        { path: { type: 'path', path: '/srv/data' }, access: 'read' },
      ]),
    );
    expect(result.kind === 'bwrap' && result.rules.map((r) => `${r.access} ${r.path}`)).toEqual([
      ...MINIMAL_PATHS.map((p) => `read ${p}`),
      'write /var/tmp/me',
      'deny /tmp',
      'write /home/me/project/a/b',
      'read /srv/data',
    ]);
  });

  it('tmpdir without $TMPDIR grants nothing', () => {
    const result = planFromStateJson(JSON.stringify(profile([special('tmpdir', 'write')])), {
      cwd: '/',
      tmpdir: null,
    });
    expect(result.kind === 'bwrap' && result.rules).toEqual([]);
  });

  it('network enabled, missing network means restricted', () => {
    const enabled = profile([]);
    enabled.permissionProfile.network = 'enabled';
    expect(plan(enabled)).toMatchObject({ network: true });
    const missing = { permissionProfile: { type: 'managed', file_system: { type: 'restricted' } } };
    expect(plan(missing)).toMatchObject({ network: false, rules: [] });
  });

  it('wins over sandboxPolicy when both are present (as in Codex payloads)', () => {
    const both = profile([special('root', 'read')], {
      sandboxPolicy: { type: 'dangerFullAccess' },
      codexLinuxSandboxExe: '/usr/bin/codex-linux-sandbox',
      useLegacyLandlock: false,
    });
    expect(plan(both).kind).toBe('bwrap');
  });

  it('refusals are SandboxRefusal with code state_unenforceable', () => {
    let error: unknown;
    try {
      plan(profile([{ path: { type: 'path', path: 'relative' }, access: 'read' }]));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SandboxRefusal);
    expect((error as SandboxRefusal).code).toBe('state_unenforceable');
    expect((error as Error).message).toBe(
      'cannot enforce the sandbox state: permissionProfile.file_system.entries[0].path.path must be an absolute path, got `relative`',
    );
    expect(() => plan(profile([special('root', 'execute')]))).toThrowError(
      'cannot enforce the sandbox state: unknown permissionProfile.file_system.entries[0].access `execute` (this launcher knows `read`, `write`, `deny`)',
    );
    expect(() => plan(profile([], { sandboxCwd: 'https://x/y' }))).toThrowError(
      'sandboxCwd must be a file:// URL or an absolute path',
    );
  });
});
