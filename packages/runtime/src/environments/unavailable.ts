/**
 * Placeholder for environments this build cannot run yet (ssh until its issue lands) and for
 * environments whose config table is invalid: every server in it fails alone with the reason.
 */

import type { ExecutionEnvironment, HttpAccess, StdioLaunchSpec } from './types.js';

export class UnavailableEnvironment implements ExecutionEnvironment {
  readonly defaultCwd = null;
  readonly unavailableReason: string;

  constructor(
    readonly id: string,
    readonly kind: 'exec' | 'ssh',
    readonly reason: string,
  ) {
    this.unavailableReason = reason;
  }

  spawn(_spec: StdioLaunchSpec): never {
    throw new Error(this.reason);
  }

  http(): HttpAccess {
    return { kind: 'unsupported', reason: this.reason };
  }

  async close(): Promise<void> {}
}
