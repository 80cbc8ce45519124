/**
 * Diagnostics of one load: positions (via the locator), `file:line:column: keyPath: problem`
 * messages, and per-unit collection (top level, one environment, one server).
 */

import { formatKeyPath } from './fields.js';
import type { KeyPath, Locator } from './locate.js';
import type { ConfigDiagnostic, ConfigLocation } from './types.js';

/** Stable sort by line, then column. */
export function sortByPosition(list: readonly ConfigDiagnostic[]): ConfigDiagnostic[] {
  return [...list].sort(
    (a, b) => a.location.line - b.location.line || a.location.column - b.location.column,
  );
}

export class Context {
  /** Every diagnostic, in the order found. */
  readonly all: ConfigDiagnostic[] = [];
  readonly warnings: ConfigDiagnostic[] = [];

  constructor(
    readonly file: string,
    private readonly locator: Locator,
  ) {}

  location(path: KeyPath): ConfigLocation {
    const pos = this.locator(path);
    return { file: this.file, line: pos.line, column: pos.column, keyPath: formatKeyPath(path) };
  }
}

/** Diagnostics of one unit (the top level, one environment, one server). */
export class Sink {
  readonly list: ConfigDiagnostic[] = [];

  constructor(readonly ctx: Context) {}

  private add(severity: ConfigDiagnostic['severity'], path: KeyPath, problem: string): void {
    const location = this.ctx.location(path);
    const prefix = `${location.file}:${location.line}:${location.column}: `;
    const message =
      location.keyPath === '' ? `${prefix}${problem}` : `${prefix}${location.keyPath}: ${problem}`;
    const diagnostic: ConfigDiagnostic = { severity, location, problem, message };
    this.list.push(diagnostic);
    this.ctx.all.push(diagnostic);
    if (severity === 'warning') this.ctx.warnings.push(diagnostic);
  }

  error(path: KeyPath, problem: string): void {
    this.add('error', path, problem);
  }

  warn(path: KeyPath, problem: string): void {
    this.add('warning', path, problem);
  }

  /** This unit's diagnostics in source order. */
  sorted(): ConfigDiagnostic[] {
    return sortByPosition(this.list);
  }

  /** The first error in source order. */
  firstError(): ConfigDiagnostic | undefined {
    return this.sorted().find((d) => d.severity === 'error');
  }

  /** Counts errors so callers can tell whether a step added any. */
  errorCount(): number {
    return this.list.filter((d) => d.severity === 'error').length;
  }
}
