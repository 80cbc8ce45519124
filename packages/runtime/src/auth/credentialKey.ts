/**
 * Where a registration's OAuth credentials live in the token store: Codex's key scheme
 * (codex-behaviour §4.3, §7.6) with the registration scope as the environment part. A
 * thread-wide registration keys by its plain name (`local:` prefixed when the name itself looks
 * like a prefixed key); a registration contributed by environment `e` keys by
 * `executor:{b64url(e)}:{b64url(name)}`. The server URL is part of the key, so a changed URL
 * never reuses tokens minted for another resource, and same-named servers in two environments
 * never share credentials.
 */

import { createHash } from 'node:crypto';

import type { RegistrationScope } from '../scope.js';

const RESERVED_PREFIXES = ['executor:', 'local:', 'ema-idp:'];

const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

/** The credential name of a scope (Codex's `credentialName`). */
export function credentialName(scope: RegistrationScope): string {
  if (scope.environmentId === null) {
    return RESERVED_PREFIXES.some((p) => scope.name.startsWith(p))
      ? `local:${scope.name}`
      : scope.name;
  }
  return `executor:${b64url(scope.environmentId)}:${b64url(scope.name)}`;
}

/** `{credentialName}|{first 16 hex of SHA-256 of {"type":"http","url":…,"headers":{}}}`. */
export function credentialStoreKey(scope: RegistrationScope, serverUrl: string): string {
  const identity = JSON.stringify({ type: 'http', url: serverUrl, headers: {} });
  const digest = createHash('sha256').update(identity).digest('hex').slice(0, 16);
  return `${credentialName(scope)}|${digest}`;
}
