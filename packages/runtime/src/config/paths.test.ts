/** Tests for resolveConfigFile: mcprt home precedence, `~` expansion, Codex mode. */

import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfigFile } from './paths.js';

describe('resolveConfigFile', () => {
  it('defaults to ~/.mcprt/config.toml in mcprt mode', () => {
    expect(resolveConfigFile({ env: { HOME: '/home/ada' } })).toEqual({
      file: '/home/ada/.mcprt/config.toml',
      mode: 'mcprt',
    });
  });

  it('falls back to os.homedir() when HOME is unset', () => {
    expect(resolveConfigFile({ env: {} }).file).toBe(join(homedir(), '.mcprt', 'config.toml'));
  });

  it('uses $MCPRT_HOME, and an explicit home beats it', () => {
    const env = { HOME: '/home/ada', MCPRT_HOME: '/srv/mcprt' };
    expect(resolveConfigFile({ env }).file).toBe('/srv/mcprt/config.toml');
    expect(resolveConfigFile({ env, home: '/opt/other' }).file).toBe('/opt/other/config.toml');
  });

  it('ignores an empty $MCPRT_HOME', () => {
    expect(resolveConfigFile({ env: { HOME: '/h', MCPRT_HOME: '' } }).file).toBe(
      '/h/.mcprt/config.toml',
    );
  });

  it('expands ~ and makes relative homes absolute', () => {
    expect(resolveConfigFile({ env: { HOME: '/h' }, home: '~/x' }).file).toBe('/h/x/config.toml');
    expect(resolveConfigFile({ env: { HOME: '/h' }, home: 'demo' }).file).toBe(
      resolve('demo', 'config.toml'),
    );
  });

  it('reads <codexHome>/config.toml in codex mode', () => {
    expect(
      resolveConfigFile({
        env: { HOME: '/h', MCPRT_HOME: '/m' },
        home: '/x',
        codexHome: '~/.codex',
      }),
    ).toEqual({ file: '/h/.codex/config.toml', mode: 'codex' });
  });
});
