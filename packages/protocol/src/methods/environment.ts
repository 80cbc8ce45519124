/** `environment/list` (mcprt extension): the execution environments the runtime knows. */

import { z } from 'zod';

/** Params: absent, null, or `{threadId}` to list a thread's selected environments in its order. */
export const EnvironmentListParams = z
  .object({ threadId: z.string().nullish() })
  .nullish()
  .meta({ title: 'EnvironmentListParams' });
export type EnvironmentListParams = z.infer<typeof EnvironmentListParams>;

/** Kind of environment: this machine, a command prefix, or an SSH host. */
export const EnvironmentKind = z.enum(['local', 'exec', 'ssh']).meta({ id: 'EnvironmentKind' });
export type EnvironmentKind = z.infer<typeof EnvironmentKind>;

/**
 * Connection state of an environment: `ready`; `connecting` (an ssh connection is being made);
 * `disconnected` (not connected yet, or lost: `error` says why); `unavailable` (invalid config).
 */
export const EnvironmentStatus = z
  .enum(['ready', 'connecting', 'disconnected', 'unavailable'])
  .meta({ id: 'EnvironmentStatus' });
export type EnvironmentStatus = z.infer<typeof EnvironmentStatus>;

/** One environment. */
export const EnvironmentInfo = z
  .object({
    environmentId: z.string(),
    kind: EnvironmentKind,
    status: EnvironmentStatus,
    error: z.string().nullable().describe('Why the environment is disconnected or unavailable.'),
    cwd: z.string().nullable().describe("The environment's cwd (the thread's, with threadId)."),
    remoteConfigError: z
      .string()
      .nullable()
      .describe(
        "With threadId: why the environment's own config (ssh: the remote host's ~/.mcprt/config.toml) could not be read; its remote registrations are missing.",
      ),
  })
  .meta({ id: 'EnvironmentInfo' });
export type EnvironmentInfo = z.infer<typeof EnvironmentInfo>;

/** `environment/list` result. */
export const EnvironmentListResult = z
  .object({ data: z.array(EnvironmentInfo) })
  .meta({ title: 'EnvironmentListResult' });
export type EnvironmentListResult = z.infer<typeof EnvironmentListResult>;
