/**
 * `mcpServer/oauth/login` and `mcpServer/oauthLogin/completed`: start an OAuth login of one
 * registration and learn how it ended, in Codex 0.171's shapes plus `environmentId` (the
 * registration scope selector on the request, and the scope that was logged in on the
 * notification).
 */

import { z } from 'zod';

/** Client registration strategy for one login (Codex's `McpServerOauthClientRegistration`). */
export const McpServerOauthClientRegistration = z
  .enum(['auto', 'cimd', 'dcr'])
  .meta({ id: 'McpServerOauthClientRegistration' });

export const McpServerOauthLoginParams = z
  .object({
    name: z.string(),
    environmentId: z
      .string()
      .nullish()
      .describe('Exact registration scope; omission preserves legacy name-only selection.'),
    threadId: z.string().nullish(),
    scopes: z.array(z.string()).nullish(),
    clientRegistration: McpServerOauthClientRegistration.nullish().describe(
      'Registration strategy for this login only; omission selects automatic discovery.',
    ),
    timeoutSecs: z.number().int().positive().nullish(),
  })
  .meta({ title: 'McpServerOauthLoginParams' });
export type McpServerOauthLoginParams = z.infer<typeof McpServerOauthLoginParams>;

export const McpServerOauthLoginResult = z
  .object({
    authorizationUrl: z.string(),
    loginId: z
      .string()
      .nullable()
      .describe('Identifies this login attempt across the response and completion notification.'),
  })
  .meta({ title: 'McpServerOauthLoginResult' });
export type McpServerOauthLoginResult = z.infer<typeof McpServerOauthLoginResult>;

export const McpServerOauthLoginCompletedNotification = z
  .object({
    name: z.string(),
    environmentId: z
      .string()
      .nullable()
      .describe('Registration scope that was logged in (null: a thread-wide registration).'),
    threadId: z.string().nullable(),
    loginId: z.string().nullable().describe('Identifies the explicit login attempt.'),
    success: z.boolean(),
    error: z.string().nullish(),
  })
  .meta({ title: 'McpServerOauthLoginCompletedNotification' });
export type McpServerOauthLoginCompletedNotification = z.infer<
  typeof McpServerOauthLoginCompletedNotification
>;
