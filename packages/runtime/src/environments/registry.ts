/**
 * The set of execution environments known to a runtime, built from config: `local` (implicit)
 * plus every `[environments.<id>]` table, in file order. Lookup by id; order matters for the
 * legacy name-only routing rule. A registry built with `previous` keeps every environment whose
 * config did not change (same object, so an ssh environment keeps its one connection) and lists
 * the others in `retired` for the runtime to close once no session uses them.
 */

import type { EnvironmentConfig, McprtConfig } from '../config/types.js';
import { ExecEnvironment } from './exec.js';
import { LOCAL_ENVIRONMENT_ID, LocalEnvironment } from './local.js';
import { SshEnvironment } from './ssh.js';
import type { ExecutionEnvironment } from './types.js';
import { UnavailableEnvironment } from './unavailable.js';

/** What identifies an environment's config (its position in the file does not). */
function configKey(env: EnvironmentConfig): string {
  const { location: _location, ...rest } = env;
  return JSON.stringify(rest);
}

export class EnvironmentRegistry {
  private readonly byId = new Map<string, ExecutionEnvironment>();
  private readonly keys = new Map<string, string>();
  /** Configured environment ids in file order (without `local`). */
  readonly configuredIds: readonly string[];
  /** Environments of `previous` that this registry does not keep. */
  readonly retired: readonly ExecutionEnvironment[];

  constructor(
    config: McprtConfig,
    processEnv: NodeJS.ProcessEnv = process.env,
    previous?: EnvironmentRegistry,
  ) {
    this.byId.set(
      LOCAL_ENVIRONMENT_ID,
      previous?.get(LOCAL_ENVIRONMENT_ID) ?? new LocalEnvironment(),
    );
    const ids: string[] = [];
    for (const env of config.environments) {
      ids.push(env.id);
      const key = configKey(env);
      const kept = previous?.keys.get(env.id) === key ? previous.get(env.id) : undefined;
      this.keys.set(env.id, key);
      this.byId.set(
        env.id,
        kept ??
          (env.type === 'exec'
            ? new ExecEnvironment(env, processEnv)
            : new SshEnvironment(env, { processEnv })),
      );
    }
    for (const bad of config.invalidEnvironments) {
      if (this.byId.has(bad.id)) continue;
      ids.push(bad.id);
      this.byId.set(bad.id, new UnavailableEnvironment(bad.id, 'exec', bad.error));
    }
    this.configuredIds = ids;
    const kept = new Set(this.byId.values());
    this.retired = previous ? [...previous.byId.values()].filter((e) => !kept.has(e)) : [];
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
