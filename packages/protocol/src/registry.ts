/**
 * THE method table. Every app-server method, its direction, its params and result schemas and
 * whether it is experimental. The app-server builds its dispatcher from it, the SDK derives its
 * typed `request()` / notification types from it, and `schemaGen.ts` walks it to write
 * `schema/json/` (`npm run gen:schema`). Adding a method here is an API decision.
 */

import type { z } from 'zod';

import {
  CancelRequestNotificationParams,
  McpServerToolCancelParams,
  McpServerToolCancelResult,
  ServerRequestResolvedNotification,
} from './methods/cancel.js';
import { ConfigMcpServerReloadParams, ConfigMcpServerReloadResult } from './methods/config.js';
import { EnvironmentListParams, EnvironmentListResult } from './methods/environment.js';
import { HistoryListParams, HistoryListResult } from './methods/history.js';
import {
  McpServerTaskListParams,
  McpServerTaskListResult,
  McpServerTaskResultParams,
  McpServerTaskResultResult,
} from './methods/task.js';
import {
  InitializedNotificationParams,
  InitializeParams,
  InitializeResult,
} from './methods/initialize.js';
import {
  McpServerOauthLoginCompletedNotification,
  McpServerOauthLoginParams,
  McpServerOauthLoginResult,
  McpServerOauthLoginSubmitRedirectParams,
  McpServerOauthLoginSubmitRedirectResult,
  McpServerOauthLogoutParams,
  McpServerOauthLogoutResult,
} from './methods/oauth.js';
import { McpResourceReadParams, McpResourceReadResult } from './methods/resource.js';
import {
  ListMcpServerStatusParams,
  ListMcpServerStatusResult,
  McpServerStatusUpdatedNotification,
} from './methods/serverStatus.js';
import {
  ItemCompletedNotification,
  ItemStartedNotification,
  McpServerElicitationRequestParams,
  McpServerElicitationRequestResult,
  McpServerToolCallParams,
  McpServerToolCallResult,
  McpToolCallProgressNotification,
} from './methods/tool.js';
import {
  ThreadSandboxStateUpdateParams,
  ThreadSandboxStateUpdateResult,
} from './methods/sandbox.js';
import {
  ThreadStartedNotification,
  ThreadStartParams,
  ThreadStartResult,
} from './methods/thread.js';
import { McpServerToolSearchParams, McpServerToolSearchResult } from './methods/toolSearch.js';
import { ThreadToolViewGetParams, ThreadToolViewGetResult } from './methods/toolView.js';

export interface RequestSpec<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly params: P;
  readonly result: R;
  readonly experimental: boolean;
  readonly description: string;
}

export interface NotificationSpec<P extends z.ZodType = z.ZodType> {
  readonly params: P;
  readonly experimental: boolean;
  readonly description: string;
}

const request = <P extends z.ZodType, R extends z.ZodType>(
  params: P,
  result: R,
  description: string,
  experimental = false,
): RequestSpec<P, R> => ({ params, result, description, experimental });

const notification = <P extends z.ZodType>(
  params: P,
  description: string,
  experimental = false,
): NotificationSpec<P> => ({ params, description, experimental });

/** Requests a client sends to the app-server. */
export const clientRequests = {
  initialize: request(InitializeParams, InitializeResult, 'Handshake; must be the first request.'),
  'thread/start': request(
    ThreadStartParams,
    ThreadStartResult,
    'Start a runtime session (thread) and its MCP servers.',
  ),
  'thread/sandboxState/update': request(
    ThreadSandboxStateUpdateParams,
    ThreadSandboxStateUpdateResult,
    "Replace a thread's sandbox state for later tool calls (mcprt extension).",
  ),
  'mcpServerStatus/list': request(
    ListMcpServerStatusParams,
    ListMcpServerStatusResult,
    'List MCP server status, inventory and auth per registration.',
  ),
  'mcpServer/tool/call': request(
    McpServerToolCallParams,
    McpServerToolCallResult,
    'Call a tool of one registration.',
  ),
  'mcpServer/resource/read': request(
    McpResourceReadParams,
    McpResourceReadResult,
    'Read a resource of one registration.',
  ),
  'mcpServer/oauth/login': request(
    McpServerOauthLoginParams,
    McpServerOauthLoginResult,
    'Start an OAuth login of one registration; answers with the URL to open at once.',
  ),
  'mcpServer/oauth/login/submitRedirect': request(
    McpServerOauthLoginSubmitRedirectParams,
    McpServerOauthLoginSubmitRedirectResult,
    'Complete a pending login with the redirect URL a person pasted (mcprt extension).',
  ),
  'mcpServer/oauth/logout': request(
    McpServerOauthLogoutParams,
    McpServerOauthLogoutResult,
    'Remove the stored OAuth credentials of one registration (mcprt extension).',
  ),
  'config/mcpServer/reload': request(
    ConfigMcpServerReloadParams,
    ConfigMcpServerReloadResult,
    'Re-read config.toml and apply it to running threads.',
  ),
  'mcpServer/tool/cancel': request(
    McpServerToolCancelParams,
    McpServerToolCancelResult,
    'Cancel an in-flight tool call by item id (mcprt extension).',
  ),
  'history/list': request(
    HistoryListParams,
    HistoryListResult,
    "List recorded tool calls, newest first (mcprt extension): those of the threads this connection started (a `threadId` it did not start is `thread not found`); only a privileged connection (the app-server's stdio, an in-process client) lists every thread's.",
  ),
  'mcpServer/task/list': request(
    McpServerTaskListParams,
    McpServerTaskListResult,
    'List tool calls the servers ran as MCP tasks, newest first, with their state (mcprt extension; the same threads as `history/list`).',
  ),
  'mcpServer/task/result': request(
    McpServerTaskResultParams,
    McpServerTaskResultResult,
    "A task call's finished record, once the task has ended — resumed if the process that started it is gone; `item/completed` for the call goes to the asking thread (mcprt extension).",
  ),
  'environment/list': request(
    EnvironmentListParams,
    EnvironmentListResult,
    'List execution environments (mcprt extension).',
  ),
  'mcpServer/tool/search': request(
    McpServerToolSearchParams,
    McpServerToolSearchResult,
    "Search the tools of a thread's view, best first (mcprt extension; the gateway's `search_tools`).",
  ),
  'thread/toolView/get': request(
    ThreadToolViewGetParams,
    ThreadToolViewGetResult,
    "What a thread's view lists and what its tool definitions cost in tokens, per server and in total, with tool search off and on (mcprt extension).",
  ),
} as const;

/** Notifications a client sends. */
export const clientNotifications = {
  initialized: notification(
    InitializedNotificationParams,
    'Sent once after the initialize response.',
  ),
  '$/cancelRequest': notification(
    CancelRequestNotificationParams,
    'Cancel an in-flight request by its JSON-RPC id (mcprt extension; LSP convention).',
  ),
} as const;

/** Requests the app-server sends to the client. */
export const serverRequests = {
  'mcpServer/elicitation/request': request(
    McpServerElicitationRequestParams,
    McpServerElicitationRequestResult,
    'An MCP server asks the user for input (form or URL).',
  ),
} as const;

/** Notifications the app-server sends. */
export const serverNotifications = {
  'thread/started': notification(ThreadStartedNotification, 'A thread was started.'),
  'mcpServer/startupStatus/updated': notification(
    McpServerStatusUpdatedNotification,
    'Startup state of one registration changed.',
  ),
  'mcpServer/oauthLogin/completed': notification(
    McpServerOauthLoginCompletedNotification,
    'An OAuth login started with mcpServer/oauth/login ended.',
  ),
  'item/mcpToolCall/progress': notification(
    McpToolCallProgressNotification,
    'Progress reported by an MCP server during a tool call.',
  ),
  'item/started': notification(ItemStartedNotification, 'A tool-call item started.'),
  'item/completed': notification(ItemCompletedNotification, 'A tool-call item completed.'),
  'serverRequest/resolved': notification(
    ServerRequestResolvedNotification,
    'A server→client request was answered or withdrawn.',
  ),
} as const;

export type ClientRequests = typeof clientRequests;
export type ClientRequestMethod = keyof ClientRequests;
export type ServerRequests = typeof serverRequests;
export type ServerRequestMethod = keyof ServerRequests;
export type ServerNotifications = typeof serverNotifications;
export type ServerNotificationMethod = keyof ServerNotifications;
export type ClientNotifications = typeof clientNotifications;
export type ClientNotificationMethod = keyof ClientNotifications;

/** What a sender may pass (defaults not yet applied). */
export type ParamsIn<T extends { params: z.ZodType }> = z.input<T['params']>;
/** What a receiver gets after validation. */
export type ParamsOut<T extends { params: z.ZodType }> = z.output<T['params']>;
export type ResultOf<T extends { result: z.ZodType }> = z.output<T['result']>;

export type ClientRequestParams<M extends ClientRequestMethod> = ParamsIn<ClientRequests[M]>;
export type ClientRequestResult<M extends ClientRequestMethod> = ResultOf<ClientRequests[M]>;
export type ServerNotificationParams<M extends ServerNotificationMethod> = ParamsOut<
  ServerNotifications[M]
>;
export type ServerRequestParams<M extends ServerRequestMethod> = ParamsOut<ServerRequests[M]>;
export type ServerRequestResult<M extends ServerRequestMethod> = z.input<
  ServerRequests[M]['result']
>;
