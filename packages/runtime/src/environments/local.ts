/**
 * The implicit `local` environment: stdio servers are children of this process, HTTP is direct.
 */

import { spawn } from 'node:child_process';

import type { ExecutionEnvironment, HttpAccess, StdioLaunchSpec } from './types.js';

export const LOCAL_ENVIRONMENT_ID = 'local';

export class LocalEnvironment implements ExecutionEnvironment {
  readonly id = LOCAL_ENVIRONMENT_ID;
  readonly kind = 'local' as const;
  readonly defaultCwd = null;
  readonly unavailableReason = null;

  spawn(spec: StdioLaunchSpec) {
    return spawn(spec.command, [...spec.args], {
      env: { ...spec.env },
      ...(spec.cwd === null ? {} : { cwd: spec.cwd }),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    });
  }

  http(): HttpAccess {
    return { kind: 'direct' };
  }

  async close(): Promise<void> {}
}
