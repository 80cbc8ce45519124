/**
 * Registration scope: the identity of one configured MCP server, `(environmentId, name)`.
 * `environmentId === null` is a thread-wide registration (`[mcp_servers.<name>]`); a string is a
 * registration contributed by that environment (`[environments.<id>.mcp_servers.<name>]`).
 * Every runtime map is keyed by `scopeKey`, never by name alone.
 */

export interface RegistrationScope {
  readonly environmentId: string | null;
  readonly name: string;
}

/** Stable map key for a scope. NUL cannot appear in names or environment ids. */
export function scopeKey(scope: RegistrationScope): string {
  return `${scope.environmentId ?? ''}\u0000${scope.name}`;
}

/** Human label: `name` for thread-wide registrations, `name@env` for contributed ones. */
export { scopeLabel } from '@mcprt/base';

export function sameScope(a: RegistrationScope, b: RegistrationScope): boolean {
  return a.environmentId === b.environmentId && a.name === b.name;
}
