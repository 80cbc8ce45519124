/**
 * `thread/start` and `thread/started`. An mcprt thread is a runtime session (selected
 * environments, sandbox state, one connection per enabled registration), not Codex's agent
 * thread: params accept Codex's fields so Codex clients work unchanged, and the result carries
 * only the session's own fields. `view` (params and thread) is an mcprt extension: the thread runs
 * under a `[views.NAME]` selection of the tool inventory (docs/tool-shaping.md).
 */

import { z } from 'zod';

/** Codex's `TurnEnvironmentParams`: one environment the thread selects, with its cwd. */
export const TurnEnvironmentParams = z
  .object({
    environmentId: z.string(),
    cwd: z.string(),
    runtimeWorkspaceRoots: z
      .array(z.string())
      .nullish()
      .describe('Environment-native runtime workspace roots. Omitted defaults to `cwd`.'),
  })
  .meta({ id: 'TurnEnvironmentParams' });
export type TurnEnvironmentParams = z.infer<typeof TurnEnvironmentParams>;

/** Codex's `AskForApproval` (accepted, ignored). */
export const AskForApproval = z
  .union([
    z.enum(['untrusted', 'on-request', 'never']),
    z.strictObject({
      granular: z.object({
        mcp_elicitations: z.boolean(),
        request_permissions: z.boolean().optional(),
        rules: z.boolean(),
        sandbox_approval: z.boolean(),
        skill_approval: z.boolean().optional(),
      }),
    }),
  ])
  .meta({ id: 'AskForApproval' });
export type AskForApproval = z.infer<typeof AskForApproval>;

/**
 * `thread/start` params. Loose: Codex's agent fields (model, approvals, instructions, …) and its
 * experimental ones are accepted and ignored; mcprt reads `ephemeral`, `cwd`, `environments`,
 * `sandboxState` and `view`.
 */
export const ThreadStartParams = z
  .looseObject({
    ephemeral: z.boolean().nullish(),
    cwd: z.string().nullish(),
    environments: z
      .array(TurnEnvironmentParams)
      .nullish()
      .describe(
        'Environments the thread selects, in priority order. Omitted: every configured environment; [] selects none.',
      ),
    sandboxState: z
      .unknown()
      .optional()
      .describe('Opaque sandbox state forwarded to servers that opt in (`codex/sandbox-state`).'),
    view: z
      .string()
      .min(1)
      .nullish()
      .describe(
        'mcprt extension: run the thread under the view `[views.NAME]` of config.toml — calls to tools outside it are refused, `mcpServerStatus/list` lists only its tools, `mcpServer/tool/search` searches it. Omitted or null: the whole inventory. An unknown or invalid view is an invalid request and no thread is started.',
      ),
    // Codex agent fields: accepted for compatibility, ignored by mcprt.
    approvalPolicy: AskForApproval.nullish(),
    approvalsReviewer: z
      .enum(['user', 'auto_review', 'guardian_subagent'])
      .meta({ id: 'ApprovalsReviewer' })
      .nullish(),
    baseInstructions: z.string().nullish(),
    config: z.record(z.string(), z.unknown()).nullish(),
    developerInstructions: z.string().nullish(),
    model: z.string().nullish(),
    modelProvider: z.string().nullish(),
    personality: z.enum(['none', 'friendly', 'pragmatic']).meta({ id: 'Personality' }).nullish(),
    sandbox: z
      .enum(['read-only', 'workspace-write', 'danger-full-access'])
      .meta({ id: 'SandboxMode' })
      .nullish(),
    serviceName: z.string().nullish(),
    serviceTier: z.string().nullish(),
    sessionStartSource: z.enum(['startup', 'clear']).meta({ id: 'ThreadStartSource' }).nullish(),
    threadSource: z.string().nullish(),
  })
  .meta({ title: 'ThreadStartParams' });
export type ThreadStartParams = z.infer<typeof ThreadStartParams>;

/** One environment selected by a thread. */
export const ThreadEnvironment = z
  .object({ environmentId: z.string(), cwd: z.string() })
  .meta({ id: 'ThreadEnvironment' });
export type ThreadEnvironment = z.infer<typeof ThreadEnvironment>;

/** A runtime session. */
export const Thread = z
  .object({
    id: z.string(),
    environments: z.array(ThreadEnvironment).describe('Selected environments, in priority order.'),
    cwd: z.string().nullable(),
    ephemeral: z.boolean(),
    createdAt: z.int().describe('Unix timestamp (in seconds) when the thread was created.'),
    view: z
      .string()
      .optional()
      .describe(
        'mcprt extension: the view the thread runs under; absent when it has none (the whole inventory).',
      ),
  })
  .meta({ id: 'Thread' });
export type Thread = z.infer<typeof Thread>;

/** `thread/start` result. */
export const ThreadStartResult = z.object({ thread: Thread }).meta({ title: 'ThreadStartResult' });
export type ThreadStartResult = z.infer<typeof ThreadStartResult>;

/** `thread/started` notification. */
export const ThreadStartedNotification = z
  .object({ thread: Thread })
  .meta({ title: 'ThreadStartedNotification' });
export type ThreadStartedNotification = z.infer<typeof ThreadStartedNotification>;
