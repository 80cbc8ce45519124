/**
 * From claims to the caller: `sub`, `client_id` else `azp`, scopes from `scope` or `scp`, and
 * groups from the configured claim (a string or a string array, anything else none).
 */

import { describe, expect, it } from 'vitest';

import { callerFromClaims, missingScopes, tokenGroups, tokenScopes } from './tokenClaims.js';

describe('token claims', () => {
  it('the caller', () => {
    expect(
      callerFromClaims(
        { sub: 'alice', client_id: 'cli', azp: 'other', scope: 'a b', groups: ['g'] },
        'groups',
      ),
    ).toEqual({
      kind: 'oauth',
      subject: 'alice',
      clientId: 'cli',
      scopes: ['a', 'b'],
      groups: ['g'],
    });
    expect(callerFromClaims({ azp: 'spa' }, 'groups')).toEqual({
      kind: 'oauth',
      subject: null,
      clientId: 'spa',
      scopes: [],
      groups: [],
    });
    expect(callerFromClaims({ sub: '', client_id: 7 }, 'groups')).toMatchObject({
      subject: null,
      clientId: null,
    });
  });

  it('scopes: `scope` first, else `scp` (array or string), each once', () => {
    expect(tokenScopes({ scope: ' a  b a ', scp: ['x'] })).toEqual(['a', 'b']);
    expect(tokenScopes({ scp: ['a', 3, '', 'b'] })).toEqual(['a', 'b']);
    expect(tokenScopes({ scp: 'a b' })).toEqual(['a', 'b']);
    expect(tokenScopes({ scope: ['a'] })).toEqual([]);
  });

  it('groups: a string, a string array, else none', () => {
    expect(tokenGroups({ roles: 'admin' }, 'roles')).toEqual(['admin']);
    expect(tokenGroups({ 'https://x/groups': ['a', 'b', 'a'] }, 'https://x/groups')).toEqual([
      'a',
      'b',
    ]);
    for (const value of [['a', 1], { a: 1 }, 5, true, null, '']) {
      expect(tokenGroups({ groups: value }, 'groups')).toEqual([]);
    }
    expect(tokenGroups({}, 'toString')).toEqual([]);
  });

  it('missing scopes, in configured order', () => {
    const caller = callerFromClaims({ scope: 'b' }, 'groups');
    expect(missingScopes(caller, ['c', 'b', 'a'])).toEqual(['c', 'a']);
    expect(missingScopes(caller, [])).toEqual([]);
  });
});
