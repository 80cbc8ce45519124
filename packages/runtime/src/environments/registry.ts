/**
 * The set of execution environments known to a runtime, built from config: `local` (implicit)
 * plus every `[environments.<id>]` table, in file order. Lookup by id; order matters for the
 * legacy name-only routing rule.
 */

import type { McprtConfig } from '../config/types.js';
import { ExecEnvironment } from './exec.js';
import { LOCAL_ENVIRONMENT_ID, LocalEnvironment } from './local.js';
import type { ExecutionEnvironment } from './types.js';
import { UnavailableEnvironment } from './unavailable.js';

export class EnvironmentRegistry {
  private readonly byId = new Map<string, ExecutionEnvironment>();
  /** Configured environment ids in file order (without `local`). */
  readonly configuredIds: readonly string[];

  constructor(config: McprtConfig, processEnv: NodeJS.ProcessEnv = process.env) {
    this.byId.set(LOCAL_ENVIRONMENT_ID, new LocalEnvironment());
    const ids: string[] = [];
    for (const env of config.environments) {
      ids.push(env.id);
      this.byId.set(
        env.id,
        env.type === 'exec'
          ? new ExecEnvironment(env, processEnv)
          : new UnavailableEnvironment(
              env.id,
              'ssh',
              `ssh environments are not supported by this build (environment \`${env.id}\`)`,
            ),
      );
    }
    for (const bad of config.invalidEnvironments) {
      if (this.byId.has(bad.id)) continue;
      ids.push(bad.id);
      this.byId.set(bad.id, new UnavailableEnvironment(bad.id, 'exec', bad.error));
    }
    this.configuredIds = ids;
  }

  get(id: string): ExecutionEnvironment | undefined {
    return this.byId.get(id);
  }

  /** True for `local` and every configured environment id. */
  has(id: string): boolean {
    return this.byId.has(id);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.byId.values()].map((e) => e.close()));
  }
}
