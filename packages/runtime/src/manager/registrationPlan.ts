/**
 * Where a registration runs and how it is launched, decided once when it is built: its
 * execution environment must exist, and its launch plan must resolve (command, cwd, env, URL).
 * Any problem is a startup failure of that registration alone, with Codex's text.
 */

import type { InvalidServerConfig, ServerConfig } from '../config/types.js';
import { failedToStart, StartupFailure } from '../connection/startupErrors.js';
import type { EnvironmentRegistry } from '../environments/registry.js';
import type { ExecutionEnvironment } from '../environments/types.js';
import type { LaunchPlan } from '../launch/plan.js';
import { LaunchPlanError, planLaunch } from '../launch/plan.js';

export type RegistrationSource =
  | { readonly kind: 'valid'; readonly config: ServerConfig }
  | { readonly kind: 'invalid'; readonly config: InvalidServerConfig };

export type PlannedLaunch =
  | {
      readonly plan: LaunchPlan;
      readonly config: ServerConfig;
      readonly environment: ExecutionEnvironment;
    }
  | { readonly failure: StartupFailure };

export function resolvePlan(
  source: RegistrationSource,
  environments: EnvironmentRegistry,
  context: {
    readonly environmentCwd: (environmentId: string) => string | null;
    readonly processEnv: NodeJS.ProcessEnv;
  },
): PlannedLaunch {
  if (source.kind === 'invalid') {
    return { failure: new StartupFailure('config', source.config.error) };
  }
  const config = source.config;
  const envId = config.executionEnvironmentId;
  const environment = environments.get(envId);
  if (!environment) {
    const detail =
      envId === 'local'
        ? `local stdio MCP server \`${config.scope.name}\` requires a local environment`
        : `MCP server \`${config.scope.name}\` references unknown environment id \`${envId}\``;
    return { failure: failedToStart(config, detail, 'config') };
  }
  try {
    const plan = planLaunch(config, environment, {
      environmentCwd: context.environmentCwd(envId),
      processEnv: context.processEnv,
    });
    return { plan, config, environment };
  } catch (error) {
    if (error instanceof LaunchPlanError)
      return { failure: failedToStart(config, error.message, 'config') };
    const message = error instanceof Error ? error.message : String(error);
    return { failure: failedToStart(config, message, 'error', error) };
  }
}
