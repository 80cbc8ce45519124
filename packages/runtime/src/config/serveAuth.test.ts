/**
 * Tests for `[serve.auth]`: the token default, every oauth key and its default, each error with
 * its exact `file:line:column: key: problem` text, unknown-key warnings, and the fail-closed
 * fallback to `mode = "token"` (with its warning) whenever an oauth table has a problem.
 */

import { resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ConfigInvalidError } from '../errors.js';
import { loadConfig } from './load.js';
import type { LoadConfigOptions } from './load.js';
import type { ServeAuthConfig } from './serveTypes.js';
import type { McprtConfig } from './types.js';

const F = resolve('/cfg/config.toml');

function load(
  lines: readonly string[],
  opts: Omit<LoadConfigOptions, 'file' | 'text'> = {},
): McprtConfig {
  return loadConfig({ ...opts, file: F, text: lines.join('\n') + '\n' });
}

function auth(lines: readonly string[]): ServeAuthConfig {
  return load(['[serve]', '[serve.auth]', ...lines]).serve.auth;
}

/** Every diagnostic of `[serve.auth]` + `lines`, as strict mode throws them. */
function strictMessages(lines: readonly string[]): string[] {
  try {
    load(['[serve.auth]', ...lines], { strict: true });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigInvalidError);
    return (err as ConfigInvalidError).diagnostics.map((d) => d.message);
  }
  throw new Error('strict load did not throw');
}

const warnings = (lines: readonly string[]): string[] =>
  load(['[serve.auth]', ...lines]).warnings.map((w) => w.message);

const ISSUER = 'issuer = "http://127.0.0.1:9000"';
const TOKEN_MODE = { mode: 'token', oauth: null };

/** The warning that says the table fell back to token mode, with its first problem. */
const fellBack = (problem: string): string =>
  `${F}:1:1: serve.auth: [serve.auth] is not applied: \`mcprt serve\` uses mode = "token" until it is fixed (first problem: ${problem})`;

describe('[serve.auth]', () => {
  it('absent: token mode, no location', () => {
    expect(load(['[serve]']).serve.auth).toEqual({ mode: 'token', oauth: null, location: null });
    expect(load([]).serve.auth.mode).toBe('token');
  });

  it('mode = "token" (or no mode): token mode with its location; oauth keys are ignored with a warning', () => {
    expect(auth(['mode = "token"'])).toEqual({
      ...TOKEN_MODE,
      location: { file: F, line: 2, column: 1, keyPath: 'serve.auth' },
    });
    expect(auth([]).mode).toBe('token');
    expect(warnings(['mode = "token"', ISSUER, 'colour = 1'])).toEqual([
      `${F}:3:1: serve.auth.issuer: \`issuer\` is only read with mode = "oauth"`,
      `${F}:4:1: serve.auth.colour: unknown key \`colour\``,
    ]);
  });

  it('mode = "oauth" with only an issuer takes every default', () => {
    const config = load(['[serve.auth]', 'mode = "oauth"', ISSUER], { strict: true });
    expect(config.serve.auth).toEqual({
      mode: 'oauth',
      oauth: {
        issuer: 'http://127.0.0.1:9000',
        resource: null,
        scopes: [],
        groupsClaim: 'groups',
        clockSkewSec: 60,
        jwksUri: null,
      },
      location: { file: F, line: 1, column: 1, keyPath: 'serve.auth' },
    });
  });

  it('every oauth key, kept as written (no trailing slash added, duplicate scopes once)', () => {
    const config = load(
      [
        '[serve.auth]',
        'mode = "oauth"',
        'issuer = "https://login.example.com"',
        'resource = "https://gw.example.com/mcp"',
        'scopes = ["mcp:tools", "mcp:admin", "mcp:tools"]',
        'groups_claim = "https://example.com/groups"',
        'clock_skew_sec = 0',
        'jwks_uri = "https://login.example.com/keys?v=2"',
      ],
      { strict: true },
    );
    expect(config.serve.auth.oauth).toEqual({
      issuer: 'https://login.example.com',
      resource: 'https://gw.example.com/mcp',
      scopes: ['mcp:tools', 'mcp:admin'],
      groupsClaim: 'https://example.com/groups',
      clockSkewSec: 0,
      jwksUri: 'https://login.example.com/keys?v=2',
    });
  });

  it('http is allowed for loopback hosts only', () => {
    for (const host of ['127.0.0.1:1', 'localhost', '[::1]:8080']) {
      expect(auth(['mode = "oauth"', `issuer = "http://${host}"`]).mode).toBe('oauth');
    }
    expect(strictMessages(['mode = "oauth"', 'issuer = "http://login.example.com"'])).toEqual([
      `${F}:1:1: serve.auth: [serve.auth] is not applied: \`mcprt serve\` uses mode = "token" until it is fixed (first problem: serve.auth.issuer: issuer \`http://login.example.com\` must use https (http only for 127.0.0.1, localhost or [::1]))`,
      `${F}:3:1: serve.auth.issuer: issuer \`http://login.example.com\` must use https (http only for 127.0.0.1, localhost or [::1])`,
    ]);
  });

  it.each([
    [
      'mode = "oauth"',
      [
        `${F}:1:1: serve.auth: mode = "oauth" requires \`issuer\` (the authorization server's issuer URL)`,
      ],
    ],
    [
      'mode = "jwt"',
      [`${F}:2:1: serve.auth.mode: unknown variant \`jwt\`, expected \`token\` or \`oauth\``],
    ],
    [
      'mode = "oauth"\nissuer = "login.example.com"',
      [`${F}:3:1: serve.auth.issuer: issuer \`login.example.com\` is not an absolute URL`],
    ],
    [
      `mode = "oauth"\n${ISSUER}\nresource = "ftp://gw/mcp"`,
      [`${F}:4:1: serve.auth.resource: resource \`ftp://gw/mcp\` must use https`],
    ],
    [
      `mode = "oauth"\n${ISSUER}\nresource = "https://gw/mcp#x"`,
      [`${F}:4:1: serve.auth.resource: resource \`https://gw/mcp#x\` must not have a fragment`],
    ],
    [
      'mode = "oauth"\nissuer = "https://as/?tenant=1"',
      [`${F}:3:1: serve.auth.issuer: issuer \`https://as/?tenant=1\` must not have a query`],
    ],
    [
      `mode = "oauth"\n${ISSUER}\njwks_uri = "https://u:p@as/jwks"`,
      [
        `${F}:4:1: serve.auth.jwks_uri: jwks_uri \`https://u:p@as/jwks\` must not contain credentials`,
      ],
    ],
    [
      `mode = "oauth"\n${ISSUER}\nresource = "https://gw/a\\"b"`,
      [
        `${F}:4:1: serve.auth.resource: resource \`https://gw/a"b\` must not contain spaces, quotes, \`\\\`, \`<\` or \`>\``,
      ],
    ],
    [
      `mode = "oauth"\n${ISSUER}\nscopes = "mcp:tools"`,
      [`${F}:4:1: serve.auth.scopes: expected an array of strings, found string`],
    ],
    [
      `mode = "oauth"\n${ISSUER}\nscopes = ["a b", "ok"]`,
      [
        `${F}:4:1: serve.auth.scopes[0]: scope \`a b\` is not a valid scope (no spaces, \`"\` or \`\\\`)`,
      ],
    ],
    [
      `mode = "oauth"\n${ISSUER}\ngroups_claim = ""`,
      [`${F}:4:1: serve.auth.groups_claim: groups_claim must not be empty`],
    ],
    [
      `mode = "oauth"\n${ISSUER}\nclock_skew_sec = 301`,
      [`${F}:4:1: serve.auth.clock_skew_sec: clock_skew_sec must be between 0 and 300`],
    ],
    [
      `mode = "oauth"\n${ISSUER}\nclock_skew_sec = 1.5`,
      [`${F}:4:1: serve.auth.clock_skew_sec: expected an integer, found float`],
    ],
  ])('%j is an error, and the table falls back to token mode', (text, errors) => {
    const lines = text.split('\n');
    const messages = strictMessages(lines);
    const first = errors[0]!;
    const problem = first.slice(first.indexOf(': ') + 2);
    // Same position for `serve.auth` itself: the error is found first.
    expect([...messages].sort()).toEqual([fellBack(problem), ...errors].sort());
    expect(auth(lines)).toMatchObject(TOKEN_MODE);
  });

  it('an unknown key of an oauth table is a warning, and the table falls back (a misspelt `scopes` must not drop them)', () => {
    const lines = ['mode = "oauth"', ISSUER, 'scope = ["mcp:admin"]'];
    expect(warnings(lines)).toEqual([
      fellBack('serve.auth.scope: unknown key `scope`'),
      `${F}:4:1: serve.auth.scope: unknown key \`scope\``,
    ]);
    expect(auth(lines)).toMatchObject(TOKEN_MODE);
  });

  it('auth that is no table is an error, and token mode applies', () => {
    const lines = ['[serve]', 'auth = "oauth"'];
    const config = load(lines);
    expect(config.serve.auth).toEqual({ mode: 'token', oauth: null, location: null });
    expect(config.warnings.map((w) => w.message)).toEqual([
      `${F}:2:1: serve.auth: [serve.auth] is not applied: \`mcprt serve\` uses mode = "token" until it is fixed (first problem: serve.auth: expected a table, found string)`,
    ]);
    expect(() => load(lines, { strict: true })).toThrow(
      `${F}:2:1: serve.auth: expected a table, found string`,
    );
  });
});
