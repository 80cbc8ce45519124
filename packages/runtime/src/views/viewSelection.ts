/**
 * Which tools and servers a view selects: its `include`, `exclude` and `always_load` patterns
 * over `<environment>/<server>/<tool>` (glob.ts), compiled once per view config. A tool is in the
 * view when an `include` pattern matches it and no `exclude` pattern does. A server is in it —
 * its resources, templates and prompts are listed — when an `include` pattern names it and no
 * `exclude` pattern removes all of its tools (`<env>/<server>/*`). No view: everything.
 */

import { DEFAULT_VIEW_INCLUDE } from '../config/viewTypes.js';
import type { ViewConfig } from '../config/viewTypes.js';
import type { RegistrationScope } from '../scope.js';
import type { ToolPathPattern } from './glob.js';
import { compileToolPathPattern } from './glob.js';

export class ViewSelection {
  private readonly include: readonly ToolPathPattern[];
  private readonly exclude: readonly ToolPathPattern[];
  private readonly always: readonly ToolPathPattern[];

  constructor(readonly config: ViewConfig | null) {
    this.include = compileAll(config?.include ?? DEFAULT_VIEW_INCLUDE);
    this.exclude = compileAll(config?.exclude ?? []);
    this.always = compileAll(config?.alwaysLoad ?? []);
  }

  /** Whether the tool `tool` of `scope` is in the view. */
  includes(scope: RegistrationScope, tool: string): boolean {
    const { environmentId, name } = scope;
    if (this.config === null) return true;
    if (!this.include.some((p) => p.matches(environmentId, name, tool))) return false;
    return !this.exclude.some((p) => p.matches(environmentId, name, tool));
  }

  /** Whether the server's resources, templates and prompts are in the view. */
  includesServer(scope: RegistrationScope): boolean {
    const { environmentId, name } = scope;
    if (this.config === null) return true;
    if (!this.include.some((p) => p.matchesServer(environmentId, name))) return false;
    return !this.exclude.some((p) => p.wholeServer && p.matchesServer(environmentId, name));
  }

  /** Whether the tool is listed even while tool search is on. */
  alwaysLoad(scope: RegistrationScope, tool: string): boolean {
    return this.always.some((p) => p.matches(scope.environmentId, scope.name, tool));
  }
}

/** Config validation has refused bad patterns already; one that slips through matches nothing. */
function compileAll(patterns: readonly string[]): ToolPathPattern[] {
  return patterns.flatMap((p) => {
    const compiled = compileToolPathPattern(p);
    return 'problem' in compiled ? [] : [compiled];
  });
}
