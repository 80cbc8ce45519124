/**
 * `@mcprt/protocol`: the app-server wire contract. Every export is listed by name (adding one is
 * an API decision; `index.test.ts` pins the list).
 */

export type { ErrorCodeValue, JsonRpcErrorObject } from './errors.js';
export { ErrorCode, ProtocolError } from './errors.js';
export type {
  ClassifiedMessage,
  JsonRpcFailure,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcSuccess,
  RequestId,
} from './jsonrpc.js';
export { classifyMessage } from './jsonrpc.js';
export type {
  ClientNotificationMethod,
  ClientNotifications,
  ClientRequestMethod,
  ClientRequestParams,
  ClientRequestResult,
  ClientRequests,
  NotificationSpec,
  ParamsIn,
  ParamsOut,
  RequestSpec,
  ResultOf,
  ServerNotificationMethod,
  ServerNotificationParams,
  ServerNotifications,
  ServerRequestMethod,
  ServerRequestParams,
  ServerRequestResult,
  ServerRequests,
} from './registry.js';
export {
  clientNotifications,
  clientRequests,
  serverNotifications,
  serverRequests,
} from './registry.js';
export type { ParsedOk } from './validate.js';
export { parseParams, validateOutgoing } from './validate.js';
export type {
  GenerateSchemasOptions,
  MethodDirection,
  MethodEntry,
  MethodKind,
} from './schemaGen.js';
export {
  BUNDLE_FILE_NAME,
  GENERATED_COMMENT,
  generateSchemas,
  listMethods,
  schemaTitle,
} from './schemaGen.js';

// Wire types: each name is both a zod schema and its inferred TypeScript type.
export { ConfigMcpServerReloadParams, ConfigMcpServerReloadResult } from './methods/config.js';
export {
  McpElicitationConstOption,
  McpElicitationPrimitiveSchema,
  McpElicitationSchema,
  McpServerElicitationAction,
  McpServerElicitationRequestParams,
  McpServerElicitationRequestResult,
} from './methods/elicitation.js';
export {
  EnvironmentInfo,
  EnvironmentKind,
  EnvironmentListParams,
  EnvironmentListResult,
  EnvironmentStatus,
} from './methods/environment.js';
export {
  ClientInfo,
  InitializeCapabilities,
  InitializedNotificationParams,
  InitializeParams,
  InitializeResult,
} from './methods/initialize.js';
export {
  BlobResourceContents,
  ContentBlock,
  McpServerInfo,
  Resource,
  ResourceContent,
  ResourceTemplate,
  TextResourceContents,
  Tool,
} from './methods/mcpTypes.js';
export {
  McpServerOauthClientRegistration,
  McpServerOauthLoginCompletedNotification,
  McpServerOauthLoginParams,
  McpServerOauthLoginResult,
  McpServerOauthLoginSubmitRedirectParams,
  McpServerOauthLoginSubmitRedirectResult,
  McpServerOauthLogoutParams,
  McpServerOauthLogoutResult,
} from './methods/oauth.js';
export {
  McpResourceReadParams,
  McpResourceReadResult,
  McpResourceReadTarget,
} from './methods/resource.js';
export {
  ListMcpServerStatusParams,
  ListMcpServerStatusResult,
  McpAuthStatus,
  McpServerConnectionStatus,
  McpServerStartupFailureReason,
  McpServerStartupState,
  McpServerStatus,
  McpServerStatusDetail,
  McpServerStatusUpdatedNotification,
} from './methods/serverStatus.js';
export {
  AskForApproval,
  Thread,
  ThreadEnvironment,
  ThreadStartedNotification,
  ThreadStartParams,
  ThreadStartResult,
  TurnEnvironmentParams,
} from './methods/thread.js';
export {
  McpServerToolSearchParams,
  McpServerToolSearchResult,
  McpToolSearchHit,
} from './methods/toolSearch.js';
export {
  ThreadToolViewGetParams,
  ThreadToolViewGetResult,
  ToolViewServerCost,
} from './methods/toolView.js';
export {
  ThreadSandboxStateUpdateParams,
  ThreadSandboxStateUpdateResult,
} from './methods/sandbox.js';
export {
  ItemCompletedNotification,
  ItemStartedNotification,
  McpAppUi,
  McpServerToolCallParams,
  McpServerToolCallResult,
  McpToolCallAppContext,
  McpToolCallError,
  McpToolCallProgressNotification,
  McpToolCallResult,
  McpToolCallStatus,
  McpToolCallThreadItem,
} from './methods/tool.js';
export {
  CancelRequestNotificationParams,
  McpServerToolCancelParams,
  McpServerToolCancelResult,
  ServerRequestResolvedNotification,
} from './methods/cancel.js';
export {
  HistoryCallStatus,
  HistoryEntry,
  HistoryListParams,
  HistoryListResult,
  HistoryTask,
} from './methods/history.js';
export {
  McpServerTaskListParams,
  McpServerTaskListResult,
  McpServerTaskResultParams,
  McpServerTaskResultResult,
} from './methods/task.js';
