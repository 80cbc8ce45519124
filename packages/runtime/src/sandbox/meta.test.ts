/** Unit tests: capability detection and `_meta` construction (pure functions, no servers). */

import { describe, expect, it } from 'vitest';

import { advertisesSandboxState } from './keys.js';
import { buildCallMeta, sanitizeArguments, withoutSandboxKeys } from './meta.js';

describe('advertisesSandboxState', () => {
  it('is the presence of either key under capabilities.experimental', () => {
    expect(advertisesSandboxState({ experimental: { 'codex/sandbox-state': {} } })).toBe(true);
    expect(advertisesSandboxState({ experimental: { 'codex/sandbox-state-meta': {} } })).toBe(true);
    expect(advertisesSandboxState({ experimental: { 'codex/sandbox-state': false } })).toBe(true);
    expect(advertisesSandboxState({ experimental: { 'codex/other': {} } })).toBe(false);
    expect(advertisesSandboxState({ tools: {}, 'codex/sandbox-state': {} })).toBe(false);
    expect(advertisesSandboxState({ experimental: ['codex/sandbox-state'] })).toBe(false);
    expect(advertisesSandboxState(undefined)).toBe(false);
  });
});

describe('buildCallMeta', () => {
  const state = { sandboxPolicy: { type: 'readOnly' }, extra: [1] };

  it('puts the very same state object under both keys (never a copy)', () => {
    const meta = buildCallMeta({ threadId: 't' }, { state, launcher: null })!;
    expect(meta['codex/sandbox-state']).toBe(state);
    expect(meta['codex/sandbox-state-meta']).toBe(state);
    expect(meta).not.toHaveProperty('codex/sandbox-launcher');
    expect(Object.keys(meta)).toEqual([
      'threadId',
      'codex/sandbox-state',
      'codex/sandbox-state-meta',
    ]);
  });

  it('adds the launcher when there is one, and drops every client codex/sandbox-* key', () => {
    const client = {
      'codex/sandbox-state': 'spoof',
      'codex/sandbox-launcher': { codexExecutable: '/evil' },
      'codex/sandbox-other': 1,
      'codex/sandboxy': 'kept: not under the prefix',
      threadId: 't',
    };
    const meta = buildCallMeta(client, { state, launcher: { codexExecutable: '/l/mcprt' } });
    expect(meta).toEqual({
      'codex/sandboxy': 'kept: not under the prefix',
      threadId: 't',
      'codex/sandbox-state': state,
      'codex/sandbox-state-meta': state,
      'codex/sandbox-launcher': { codexExecutable: '/l/mcprt' },
    });
    expect(client['codex/sandbox-state']).toBe('spoof'); // the caller's object is untouched
  });

  it('without injection it only strips (and keeps the object when there is nothing to strip)', () => {
    const clean = { threadId: 't' };
    expect(buildCallMeta(clean, null)).toBe(clean);
    expect(buildCallMeta({ 'codex/sandbox-state': 1, a: 2 }, null)).toEqual({ a: 2 });
    expect(buildCallMeta(undefined, null)).toBeUndefined();
  });

  it('drops __proto__, constructor and prototype keys of the client (issue #14)', () => {
    const client = JSON.parse(
      '{"__proto__":{"x":1},"constructor":{},"prototype":1,"codex/sandbox-state":0,"k":1}',
    ) as Record<string, unknown>;
    const meta = withoutSandboxKeys(client);
    expect(Object.keys(meta)).toEqual(['k']);
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
  });
});

describe('sanitizeArguments', () => {
  it('removes codex/sandbox-* keys from arguments._meta only, without mutating', () => {
    const args = { _meta: { 'codex/sandbox-state': 'x', keep: 1 }, 'codex/sandbox-state': 'data' };
    const out = sanitizeArguments(args);
    expect(out).toEqual({ _meta: { keep: 1 }, 'codex/sandbox-state': 'data' });
    expect(args._meta).toHaveProperty('codex/sandbox-state');
  });

  it('returns the same object when nothing has to go', () => {
    const plain = { a: 1 };
    expect(sanitizeArguments(plain)).toBe(plain);
    const meta = { _meta: { keep: 1 } };
    expect(sanitizeArguments(meta)).toBe(meta);
    const odd = { _meta: 'not an object' };
    expect(sanitizeArguments(odd)).toBe(odd);
    expect(sanitizeArguments(undefined)).toBeUndefined();
  });
});
