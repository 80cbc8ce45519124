/**
 * The human label of a registration scope, the one of mcprt: `name` for a thread-wide
 * registration, `name@env` for one an environment contributed. Status views, error messages and
 * the TUI all print scopes this way.
 */

export interface LabelledScope {
  readonly name: string;
  /** Null for a thread-wide registration. */
  readonly environmentId: string | null;
}

export function scopeLabel(scope: LabelledScope): string {
  return scope.environmentId === null ? scope.name : `${scope.name}@${scope.environmentId}`;
}
