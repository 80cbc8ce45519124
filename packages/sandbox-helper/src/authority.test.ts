/** Unit tests: reading a call's authority and building launcher command lines. */

import { describe, expect, it } from 'vitest';

import { readSandboxAuthority, sameAuthority } from './authority.js';
import { launcherCommand, LauncherRequiredError, requireLauncher } from './launcher.js';

const state = { sandboxPolicy: { type: 'readOnly' }, extra: { z: 1, a: 2 } };

describe('readSandboxAuthority', () => {
  it('reads the current key first, the deprecated key as fallback', () => {
    const current = readSandboxAuthority({
      'codex/sandbox-state': state,
      'codex/sandbox-state-meta': { other: true },
      'codex/sandbox-launcher': { codexExecutable: '/usr/bin/mcprt' },
    });
    expect(current?.state).toBe(state);
    expect(current?.launcher).toBe('/usr/bin/mcprt');
    const deprecated = readSandboxAuthority({ 'codex/sandbox-state-meta': state });
    expect(deprecated?.state).toBe(state);
    expect(deprecated?.launcher).toBeNull();
  });

  it('is null without a state; a launcher that is not an absolute path is ignored', () => {
    expect(readSandboxAuthority(undefined)).toBeNull();
    expect(readSandboxAuthority({ threadId: 't' })).toBeNull();
    expect(readSandboxAuthority({ 'codex/sandbox-state': null })).toBeNull();
    for (const launcher of [{ codexExecutable: 'mcprt' }, { codexExecutable: 7 }, '/bin/x']) {
      const authority = readSandboxAuthority({
        'codex/sandbox-state': state,
        'codex/sandbox-launcher': launcher,
      });
      expect(authority?.launcher).toBeNull();
    }
  });

  it('identity: any change of state (key order included) or launcher is a different authority', () => {
    const a = readSandboxAuthority({ 'codex/sandbox-state': { x: 1, y: 2 } });
    const same = readSandboxAuthority({ 'codex/sandbox-state-meta': { x: 1, y: 2 } });
    const reordered = readSandboxAuthority({ 'codex/sandbox-state': { y: 2, x: 1 } });
    const launcher = readSandboxAuthority({
      'codex/sandbox-state': { x: 1, y: 2 },
      'codex/sandbox-launcher': { codexExecutable: '/l' },
    });
    expect(sameAuthority(a, same)).toBe(true);
    expect(sameAuthority(a, reordered)).toBe(false);
    expect(sameAuthority(a, launcher)).toBe(false);
    expect(sameAuthority(a, null)).toBe(false);
    expect(sameAuthority(null, null)).toBe(true);
  });
});

describe('launcher command lines', () => {
  it('launcherCommand: <launcher> sandbox --sandbox-state-json <state> -- <cmd> [args...]', () => {
    expect(launcherCommand('/l/mcprt', state, 'ls', ['-la', '--', 'x'])).toEqual({
      file: '/l/mcprt',
      args: [
        'sandbox',
        '--sandbox-state-json',
        JSON.stringify(state),
        '--',
        'ls',
        '-la',
        '--',
        'x',
      ],
      sandboxed: true,
    });
  });

  it('requireLauncher fails closed without a launcher unless the operator opted out', () => {
    const noLauncher = readSandboxAuthority({ 'codex/sandbox-state': state });
    expect(() => requireLauncher(null)).toThrowError(LauncherRequiredError);
    expect(() => requireLauncher(noLauncher)).toThrowError(
      'refusing to run a command: the host sent no sandbox launcher (codex/sandbox-launcher) with this call',
    );
    try {
      requireLauncher(null);
    } catch (error) {
      expect((error as LauncherRequiredError).code).toBe('sandbox_launcher_required');
    }
    expect(requireLauncher(noLauncher, { allowUnsandboxed: true }).command('ls', ['-l'])).toEqual({
      file: 'ls',
      args: ['-l'],
      sandboxed: false,
    });
    const full = readSandboxAuthority({
      'codex/sandbox-state': state,
      'codex/sandbox-launcher': { codexExecutable: '/l/mcprt' },
    });
    // With a launcher, opting out changes nothing: the launcher is always used.
    expect(requireLauncher(full, { allowUnsandboxed: true }).command('ls')).toEqual(
      launcherCommand('/l/mcprt', state, 'ls'),
    );
  });
});
