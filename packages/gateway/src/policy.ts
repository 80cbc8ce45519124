/**
 * Which view and environments a caller of the gateway gets (docs/gateway.md, "Running it for a
 * team"), from the `[[serve.policies]]` of config.toml (config/servePolicies.ts in the runtime):
 *
 * - no policies: everything the gateway serves — its own view, all of its environments;
 * - otherwise the first entry, in file order, that matches the caller decides; a caller no entry
 *   matches is refused (it may list and call nothing).
 *
 * An entry matches when every condition it has holds; a condition (a list of `*`/`?` globs)
 * holds when any of its patterns matches: `subjects` the token's `sub` (a caller without one —
 * the static-token holder, a local client — never matches a `subjects` condition), `clients` its
 * client id (likewise), `groups` any of the caller's groups, `scopes` any of its scopes. An empty
 * list matches nothing, which is how a `[[serve.policies]]` list with a problem refuses everyone
 * (the runtime replaces it by one such entry).
 */

import { compileGlob } from '@mcprt/runtime';
import type { ServePolicyConfig } from '@mcprt/runtime';

import type { Caller } from './caller.js';
import { callerLabel } from './caller.js';

/** What a caller may list and call. */
export interface PolicyGrant {
  /** The entry that matched (null: there are no policies). */
  readonly policy: string | null;
  /** The view the caller sees (null: the gateway's own view). */
  readonly view: string | null;
  /** The environments the caller may list and call (`-`: thread-wide servers; null: all). */
  readonly environments: readonly string[] | null;
}

/** No entry matched: the caller gets nothing. `refused` names the caller, never the policies. */
export interface PolicyRefusal {
  readonly refused: string;
}

export type PolicyDecision = PolicyGrant | PolicyRefusal;

/** The grant without policies: the gateway's own view and environments. */
export const GRANT_EVERYTHING: PolicyGrant = Object.freeze({
  policy: null,
  view: null,
  environments: null,
});

/** The grant of the first policy matching `caller`, or a refusal (see the module header). */
export function grantFor(caller: Caller, policies: readonly ServePolicyConfig[]): PolicyDecision {
  if (policies.length === 0) return GRANT_EVERYTHING;
  for (const policy of policies) {
    if (compiled(policy)(caller)) {
      return { policy: policy.name, view: policy.view, environments: policy.environments };
    }
  }
  return { refused: `no policy matched ${callerLabel(caller)}: nothing is granted` };
}

/** Whether `policy` matches `caller` (every condition it has holds). */
export function policyMatches(policy: ServePolicyConfig, caller: Caller): boolean {
  return compiled(policy)(caller);
}

/**
 * A stable key of what a grant gives — its view and its set of environments (order and
 * duplicates do not matter; the policy's name is not part of it) — for caching one catalog per
 * distinct grant.
 */
export function grantKey(grant: PolicyGrant): string {
  const environments = grant.environments === null ? null : [...new Set(grant.environments)].sort();
  return JSON.stringify([grant.view, environments]);
}

type Matcher = (caller: Caller) => boolean;

/** Compiled policies (config objects are replaced, not changed, on reload). */
const matchers = new WeakMap<ServePolicyConfig, Matcher>();

function compiled(policy: ServePolicyConfig): Matcher {
  let matcher = matchers.get(policy);
  if (matcher === undefined) {
    matcher = compile(policy);
    matchers.set(policy, matcher);
  }
  return matcher;
}

function compile(policy: ServePolicyConfig): Matcher {
  const subjects = anyOf(policy.subjects);
  const clients = anyOf(policy.clients);
  const groups = anyOf(policy.groups);
  const scopes = anyOf(policy.scopes);
  return (caller) =>
    (subjects === null || (caller.subject !== null && subjects(caller.subject))) &&
    (clients === null || (caller.clientId !== null && clients(caller.clientId))) &&
    (groups === null || caller.groups.some(groups)) &&
    (scopes === null || caller.scopes.some(scopes));
}

/** A predicate true when any of `patterns` matches (null: no condition). */
function anyOf(patterns: readonly string[] | null): ((value: string) => boolean) | null {
  if (patterns === null) return null;
  const tests = patterns.map(compileGlob);
  return (value) => tests.some((test) => test(value));
}
