/**
 * Public API of `@mcprt/runtime`: load config, open sessions, inspect status per registration
 * scope, call tools and read resources with an optional `environmentId` selector.
 */

export type { RegistrationScope } from './scope.js';
export { scopeKey, scopeLabel, sameScope } from './scope.js';
export {
  McprtError,
  UnknownEnvironmentError,
  EnvironmentNotSelectedError,
  UnknownServerError,
  RequiredServersError,
  ServerUnavailableError,
  ToolDisabledError,
  RequestFailedError,
  SessionClosedError,
} from './errors.js';
export type { McprtErrorCode } from './errors.js';
export * from './config/index.js';
export { Runtime } from './manager/runtime.js';
export type { RuntimeLoadOptions } from './manager/runtime.js';
export { Session } from './manager/session.js';
export type {
  SessionOptions,
  SessionEnvironment,
  ToolCallRequest,
  SessionEvents,
} from './manager/session.js';
export type {
  ServerStatus,
  StartupStatus,
  ConnectionStatus,
  FailureKind,
  StartupStatusEvent,
  StartupSummary,
  StatusTool,
  StatusResource,
  StatusResourceTemplate,
} from './manager/status.js';
export type { InventoryTool, ToolDefinition } from './inventory/inventory.js';
export { assignModelToolNames, MAX_TOOL_NAME_LENGTH } from './inventory/naming.js';
export { STDIO_ENV_ALLOW_LIST } from './launch/childEnv.js';
