/** Tests for the `sandbox_launcher` key: absent, valid, and every way it can be wrong. */

import { describe, expect, it } from 'vitest';

import { ConfigInvalidError } from '../errors.js';
import { loadConfig } from './load.js';
import { launcherPathProblem } from './sandboxLauncher.js';

const FILE = '/cfg/config.toml';
const load = (text: string) => loadConfig({ file: FILE, text });

describe('sandbox_launcher', () => {
  it('absent means the default launcher (mcprt itself), with no diagnostics', () => {
    const config = load('[mcp_servers.a]\ncommand = "x"\n');
    expect(config.sandboxLauncher).toEqual({ kind: 'default' });
    expect(config.warnings).toEqual([]);
  });

  it('an absolute path is kept as written', () => {
    const config = load('sandbox_launcher = "/opt/codex/bin/codex"\n');
    expect(config.sandboxLauncher).toEqual({ kind: 'path', path: '/opt/codex/bin/codex' });
    expect(config.warnings).toEqual([]);
  });

  it('is read in Codex mode too (Codex has no such key)', () => {
    const config = loadConfig({ file: FILE, text: 'sandbox_launcher = "/x/l"\n', mode: 'codex' });
    expect(config.sandboxLauncher).toEqual({ kind: 'path', path: '/x/l' });
  });

  it('a relative name is a warning naming file:line:column, and no launcher is sent at all', () => {
    const config = load('# launcher\nsandbox_launcher = "codex"\n');
    expect(config.warnings.map((w) => w.message)).toEqual([
      `${FILE}:2:1: sandbox_launcher: sandbox_launcher must be an absolute path, got \`codex\` (launchers are never looked up on PATH)`,
    ]);
    expect(config.sandboxLauncher.kind).toBe('invalid');
  });

  it('an empty string and a non-string are invalid too; the rest of the config still loads', () => {
    const empty = load('sandbox_launcher = ""\n[mcp_servers.a]\ncommand = "x"\n');
    expect(empty.warnings.map((w) => w.problem)).toEqual(['sandbox_launcher must not be empty']);
    expect(empty.sandboxLauncher.kind).toBe('invalid');
    expect(empty.servers.map((s) => s.scope.name)).toEqual(['a']);

    const number = load('sandbox_launcher = 7\n');
    expect(number.warnings.map((w) => w.message)).toEqual([
      `${FILE}:1:1: sandbox_launcher: expected a string, found integer`,
    ]);
    expect(number.sandboxLauncher).toEqual({
      kind: 'invalid',
      problem: 'sandbox_launcher is not a string',
    });
  });

  it('a NUL character is refused', () => {
    const config = load('sandbox_launcher = "/bin/x\\u0000y"\n');
    expect(config.warnings.map((w) => w.problem)).toEqual([
      'sandbox_launcher must not contain NUL characters',
    ]);
    expect(config.sandboxLauncher.kind).toBe('invalid');
  });

  it('strict mode turns the problem into an error', () => {
    expect(() =>
      loadConfig({ file: FILE, text: 'sandbox_launcher = "rel/x"\n', strict: true }),
    ).toThrowError(ConfigInvalidError);
  });

  it('launcherPathProblem: absolute, UTF-8, no NUL', () => {
    expect(launcherPathProblem('/usr/bin/codex')).toBeNull();
    expect(launcherPathProblem('/tmp/dir with spaces/é')).toBeNull();
    expect(launcherPathProblem('./codex')).toMatch(/must be an absolute path/);
    expect(launcherPathProblem('/bad/\uD800')).toBe('is not representable as UTF-8');
    expect(launcherPathProblem('')).toBe('must not be empty');
  });
});
