/**
 * Unit tests of caller policies (policy.ts): no policies grant everything; otherwise the first
 * matching entry decides, every present condition must hold, a list holds when any glob matches,
 * a caller without a subject (or client id) never matches that condition; a caller no entry
 * matches is refused by name. Then the fail-closed rule end to end: a broken `[[serve.policies]]`
 * in config.toml refuses the caller it was meant to restrict. And `grantKey`.
 */

import { resolve } from 'node:path';

import { loadConfig } from '@mcprt/runtime';
import type { ServePolicyConfig } from '@mcprt/runtime';
import { describe, expect, it } from 'vitest';

import type { Caller } from './caller.js';
import { LOCAL_CALLER, TOKEN_CALLER } from './caller.js';
import { GRANT_EVERYTHING, grantFor, grantKey, policyMatches } from './policy.js';
import type { PolicyGrant } from './policy.js';

const LOCATION = { file: '/cfg/config.toml', line: 1, column: 1, keyPath: 'serve.policies' };

function policy(name: string, fields: Partial<ServePolicyConfig> = {}): ServePolicyConfig {
  return {
    name,
    subjects: null,
    clients: null,
    groups: null,
    scopes: null,
    view: null,
    environments: null,
    location: LOCATION,
    ...fields,
  };
}

function oauth(fields: Partial<Caller> = {}): Caller {
  return {
    kind: 'oauth',
    subject: 'alice',
    clientId: 'web',
    scopes: ['mcp:read'],
    groups: ['staff'],
    ...fields,
  };
}

describe('policyMatches', () => {
  const cases: {
    what: string;
    policy: Partial<ServePolicyConfig>;
    caller: Caller;
    match: boolean;
  }[] = [
    { what: 'no condition: any caller', policy: {}, caller: oauth(), match: true },
    { what: 'no condition: the local client', policy: {}, caller: LOCAL_CALLER, match: true },
    { what: 'subject, exact', policy: { subjects: ['alice'] }, caller: oauth(), match: true },
    { what: 'subject, other', policy: { subjects: ['bob'] }, caller: oauth(), match: false },
    {
      what: 'subject, exact is case-sensitive',
      policy: { subjects: ['Alice'] },
      caller: oauth(),
      match: false,
    },
    {
      what: 'subject, any of the list',
      policy: { subjects: ['bob', 'al*'] },
      caller: oauth(),
      match: true,
    },
    {
      what: 'subject, `*` spans `/` and `|`',
      policy: { subjects: ['auth0|*'] },
      caller: oauth({ subject: 'auth0|users/42' }),
      match: true,
    },
    {
      what: 'subject, `?` is one character (a code point)',
      policy: { subjects: ['user-?'] },
      caller: oauth({ subject: 'user-😀' }),
      match: true,
    },
    {
      what: 'subject, `?` is not two',
      policy: { subjects: ['user-?'] },
      caller: oauth({ subject: 'user-42' }),
      match: false,
    },
    {
      what: 'subject, regex characters are literal',
      policy: { subjects: ['a.b+[c]'] },
      caller: oauth({ subject: 'axb+[c]' }),
      match: false,
    },
    {
      what: 'subject, regex characters match themselves',
      policy: { subjects: ['a.b+[c]*'] },
      caller: oauth({ subject: 'a.b+[c]-1' }),
      match: true,
    },
    {
      what: 'subject, the whole value (anchored)',
      policy: { subjects: ['lic'] },
      caller: oauth(),
      match: false,
    },
    {
      what: 'subject: a caller without one never matches, not even `*`',
      policy: { subjects: ['*'] },
      caller: oauth({ subject: null }),
      match: false,
    },
    {
      what: 'subject: the static-token holder never matches',
      policy: { subjects: ['*'] },
      caller: TOKEN_CALLER,
      match: false,
    },
    { what: 'client, exact', policy: { clients: ['web'] }, caller: oauth(), match: true },
    { what: 'client, glob', policy: { clients: ['w?b'] }, caller: oauth(), match: true },
    { what: 'client, other', policy: { clients: ['cli'] }, caller: oauth(), match: false },
    {
      what: 'client: a caller without one never matches',
      policy: { clients: ['*'] },
      caller: oauth({ clientId: null }),
      match: false,
    },
    {
      what: 'group, any of the caller’s',
      policy: { groups: ['admins'] },
      caller: oauth({ groups: ['staff', 'admins'] }),
      match: true,
    },
    {
      what: 'group, glob',
      policy: { groups: ['team-*'] },
      caller: oauth({ groups: ['team-infra'] }),
      match: true,
    },
    { what: 'group, none', policy: { groups: ['admins'] }, caller: oauth(), match: false },
    {
      what: 'group: a caller with no groups never matches',
      policy: { groups: ['*'] },
      caller: oauth({ groups: [] }),
      match: false,
    },
    { what: 'scope, exact', policy: { scopes: ['mcp:read'] }, caller: oauth(), match: true },
    {
      what: 'scope, any of the caller’s',
      policy: { scopes: ['mcp:write'] },
      caller: oauth({ scopes: ['mcp:read', 'mcp:write'] }),
      match: true,
    },
    { what: 'scope, other', policy: { scopes: ['mcp:write'] }, caller: oauth(), match: false },
    {
      what: 'every condition present must hold: all do',
      policy: { subjects: ['alice'], clients: ['web'], groups: ['staff'], scopes: ['mcp:*'] },
      caller: oauth(),
      match: true,
    },
    {
      what: 'every condition present must hold: one does not',
      policy: { subjects: ['alice'], clients: ['web'], groups: ['staff'], scopes: ['admin'] },
      caller: oauth(),
      match: false,
    },
    {
      what: 'an empty list matches nothing',
      policy: { groups: [] },
      caller: oauth(),
      match: false,
    },
  ];

  it.each(cases)('$what', ({ policy: fields, caller, match }) => {
    expect(policyMatches(policy('p', fields), caller)).toBe(match);
  });
});

describe('grantFor', () => {
  const policies = [
    policy('contractors', { groups: ['contractors'], view: 'readonly', environments: ['staging'] }),
    policy('ci', { clients: ['ci-*'], scopes: ['mcp:call'], environments: ['staging', 'prod'] }),
    policy('staff', { groups: ['staff'] }),
  ];
  const cases: { what: string; caller: Caller; grant: PolicyGrant | { refused: string } }[] = [
    {
      what: 'the first matching entry decides (contractors before staff)',
      caller: oauth({ groups: ['staff', 'contractors'] }),
      grant: { policy: 'contractors', view: 'readonly', environments: ['staging'] },
    },
    {
      what: 'a later entry when the earlier ones do not match',
      caller: oauth({ subject: 'bot', clientId: 'ci-main', scopes: ['mcp:call'], groups: [] }),
      grant: { policy: 'ci', view: null, environments: ['staging', 'prod'] },
    },
    {
      what: 'view and environments null: the gateway’s own',
      caller: oauth(),
      grant: { policy: 'staff', view: null, environments: null },
    },
    {
      what: 'no entry matches: refused, naming the caller',
      caller: oauth({ subject: 'mallory', clientId: 'evil', groups: ['guests'] }),
      grant: { refused: 'no policy matched mallory (client evil): nothing is granted' },
    },
    {
      what: 'no entry matches a caller without identity: refused by kind',
      caller: TOKEN_CALLER,
      grant: { refused: 'no policy matched token caller: nothing is granted' },
    },
  ];

  it.each(cases)('$what', ({ caller, grant }) => {
    expect(grantFor(caller, policies)).toEqual(grant);
  });

  it('without policies grants everything, to every caller', () => {
    for (const caller of [oauth(), TOKEN_CALLER, LOCAL_CALLER]) {
      expect(grantFor(caller, [])).toBe(GRANT_EVERYTHING);
    }
    expect(GRANT_EVERYTHING).toEqual({ policy: null, view: null, environments: null });
  });

  it('a catch-all last entry takes every caller the others leave', () => {
    const all = [...policies, policy('rest', { view: 'readonly', environments: [] })];
    expect(grantFor(TOKEN_CALLER, all)).toEqual({
      policy: 'rest',
      view: 'readonly',
      environments: [],
    });
  });
});

describe('a broken [[serve.policies]] refuses the callers it was meant to restrict', () => {
  const file = resolve('/cfg/config.toml');
  const policiesOf = (lines: readonly string[]) =>
    loadConfig({ file, text: `${lines.join('\n')}\n` }).serve.policies;
  const contractor = oauth({ subject: 'ext-1', groups: ['contractors'] });
  const colleague = oauth({ subject: 'bob', groups: ['staff'] });
  const config = (...contractorLines: string[]) => [
    '[views.readonly]',
    '[[serve.policies]]',
    'name = "contractors"',
    ...contractorLines,
    '[[serve.policies]]',
    'name = "staff"',
  ];

  it('as written: contractors get the read-only view, colleagues the catch-all', () => {
    const policies = policiesOf(config('groups = ["contractors"]', 'view = "readonly"'));
    expect(grantFor(contractor, policies)).toMatchObject({ policy: 'contractors' });
    expect(grantFor(colleague, policies)).toMatchObject({ policy: 'staff', view: null });
  });

  it.each([
    ['a misspelt condition', ['group = ["contractors"]', 'view = "readonly"']],
    ['a misspelt view key', ['groups = ["contractors"]', 'veiw = "readonly"']],
    ['a condition of the wrong type', ['groups = "contractors"', 'view = "readonly"']],
    ['a misspelt view name', ['groups = ["contractors"]', 'view = "read-only"']],
    ['environments of the wrong type', ['groups = ["contractors"]', 'environments = "staging"']],
  ])('%s: everyone is refused', (_what, lines) => {
    const policies = policiesOf(config(...lines));
    for (const caller of [contractor, colleague, TOKEN_CALLER]) {
      expect(grantFor(caller, policies)).toHaveProperty('refused');
    }
  });
});

describe('grantKey', () => {
  it('is the view and the set of environments: order, duplicates and the policy do not count', () => {
    const key = grantKey({ policy: 'a', view: 'readonly', environments: ['b', 'a', 'b'] });
    expect(grantKey({ policy: 'b', view: 'readonly', environments: ['a', 'b'] })).toBe(key);
    const distinct = [
      key,
      grantKey({ policy: 'a', view: 'readonly', environments: ['a'] }),
      grantKey({ policy: 'a', view: 'readonly', environments: [] }),
      grantKey({ policy: 'a', view: 'readonly', environments: null }),
      grantKey({ policy: 'a', view: null, environments: null }),
      grantKey({ policy: 'a', view: 'ops', environments: null }),
      // No separator confusion: one environment named `a,b` is not two.
      grantKey({ policy: 'a', view: 'readonly', environments: ['a,b'] }),
      grantKey({ policy: 'a', view: 'readonly', environments: ['a","b'] }),
    ];
    expect(new Set(distinct).size).toBe(distinct.length);
    expect(grantKey(GRANT_EVERYTHING)).toBe(
      grantKey({ policy: 'x', view: null, environments: null }),
    );
  });
});
