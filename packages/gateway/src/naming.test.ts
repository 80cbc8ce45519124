/** Unit tests: gateway names are the runtime's model-visible names without `mcp__`. */

import { assignModelToolNames } from '@mcprt/runtime';
import { describe, expect, it } from 'vitest';

import { assignGatewayNames, gatewayName, labelledDescription, labelledTitle } from './naming.js';

describe('gateway names', () => {
  it('strip the mcp__ prefix of the runtime names and stay unique and within 64 characters', () => {
    const scopes = [
      { environmentId: 'a', name: 'shared' },
      { environmentId: 'b', name: 'shared' },
      { environmentId: null, name: 'a' },
      { environmentId: 'a'.repeat(60), name: 'long' },
    ];
    const candidates = scopes.flatMap((scope) =>
      ['echo', 'shared__echo', 'x'.repeat(80)].map((tool) => ({ scope, tool })),
    );
    const model = assignModelToolNames(candidates);
    const names = model.map(gatewayName);
    expect(names[3]).toBe('b__shared__echo');
    // `echo` of shared@a and `shared__echo` of thread-wide `a` would read the same: one is hashed.
    expect(names[7]).toBe('a__shared__echo');
    expect(names[0]).toMatch(/^a__shared__echo_[0-9a-f]{12}$/);
    expect(model.every((m, i) => m === `mcp__${names[i]}`)).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    expect(names.every((n) => n.length <= 59 && /^[A-Za-z0-9_]+$/.test(n))).toBe(true);
    expect(assignGatewayNames([{ scope: scopes[0]!, name: 'greet' }])).toEqual([
      'a__shared__greet',
    ]);
  });

  it('label titles and descriptions with server@env', () => {
    const scope = { environmentId: 'b', name: 'shared' };
    expect(labelledTitle('Echo', scope)).toBe('Echo (shared@b)');
    expect(labelledDescription(' Echo it ', scope)).toBe('[shared@b] Echo it');
    expect(labelledDescription(undefined, { environmentId: null, name: 'docs' })).toBe('[docs]');
  });
});
