/**
 * `mcpServer/oauth/login` and `mcpServer/oauthLogin/completed`: start an OAuth login of one
 * registration and learn how it ended, in Codex 0.171's shapes plus `environmentId` (the
 * registration scope selector on the request, and the scope that was logged in on the
 * notification). mcprt extensions: `mcpServer/oauth/login/submitRedirect` completes a pending
 * login with the redirect URL a person pasted (the browser may be on another machine), and
 * `mcpServer/oauth/logout` removes the stored credentials of one registration.
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

export const McpServerOauthLoginSubmitRedirectParams = z
  .object({
    loginId: z.string().describe('The `loginId` that `mcpServer/oauth/login` answered with.'),
    redirectUrl: z
      .string()
      .describe('The URL the browser was redirected to after authorizing (pasted by a person).'),
  })
  .meta({ title: 'McpServerOauthLoginSubmitRedirectParams' });
export type McpServerOauthLoginSubmitRedirectParams = z.infer<
  typeof McpServerOauthLoginSubmitRedirectParams
>;

export const McpServerOauthLoginSubmitRedirectResult = z
  .object({
    accepted: z
      .boolean()
      .describe(
        "False when the text is not this login's redirect (it needs `code` and the login's `state`); the login keeps waiting.",
      ),
  })
  .meta({ title: 'McpServerOauthLoginSubmitRedirectResult' });
export type McpServerOauthLoginSubmitRedirectResult = z.infer<
  typeof McpServerOauthLoginSubmitRedirectResult
>;

export const McpServerOauthLogoutParams = z
  .object({
    name: z.string(),
    environmentId: z
      .string()
      .nullish()
      .describe('Exact registration scope; omission preserves legacy name-only selection.'),
  })
  .meta({ title: 'McpServerOauthLogoutParams' });
export type McpServerOauthLogoutParams = z.infer<typeof McpServerOauthLogoutParams>;

export const McpServerOauthLogoutResult = z
  .object({
    removed: z
      .boolean()
      .describe('True when stored credentials were removed; false when there were none.'),
  })
  .meta({ title: 'McpServerOauthLogoutResult' });
export type McpServerOauthLogoutResult = z.infer<typeof McpServerOauthLogoutResult>;
