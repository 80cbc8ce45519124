/**
 * Public API of `@mcprt/runtime`: load and edit config, open sessions, inspect status per
 * registration scope, call tools and read resources with an optional `environmentId` selector,
 * OAuth per registration, tool-call history. Every export is named here (pinned by
 * index.test.ts); adding one is an API decision. Results are the runtime's own types, never the
 * MCP SDK's.
 */

// Scopes and errors
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
  ConfigInvalidError,
  ConfigParseError,
  ConfigWriteError,
  UnknownViewError,
  ToolNotInViewError,
} from './errors.js';
export type { McprtErrorCode, ServerErrorInfo } from './errors.js';

// Config: locating, loading, validating and editing `config.toml`
export { resolveConfigFile } from './config/paths.js';
export type { ConfigMode, ResolveConfigFileOptions, ResolvedConfigFile } from './config/paths.js';
export { loadConfig, parseToml } from './config/load.js';
export type { LoadConfigOptions } from './config/load.js';
export { invalidServerNameProblem, SERVER_NAME_PATTERN } from './config/server.js';
export { environmentIdProblem } from './config/environment.js';
export { formatKeyPath } from './config/fields.js';
export { addServerToFile, removeServerFromFile } from './config/edit.js';
export type { AddServerOptions } from './config/edit.js';
export { createLocator, locateKey } from './config/locate.js';
export type { KeyPath, Locator, SourcePosition } from './config/locate.js';
export {
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  PROTOCOL_VERSION_SETTINGS,
} from './config/types.js';
export { launcherPathProblem } from './config/sandboxLauncher.js';
export {
  DEFAULT_SERVE_CONFIG,
  DEFAULT_TOOL_SEARCH_THRESHOLD_TOKENS,
  DEFAULT_VIEW_INCLUDE,
  TOOL_PREFIX_MODES,
  TOOL_SEARCH_MODES,
} from './config/viewTypes.js';
export type {
  InvalidViewConfig,
  ServeConfig,
  ToolPrefixMode,
  ToolSearchMode,
  ViewConfig,
  ViewToolOverride,
} from './config/viewTypes.js';
export type {
  ServeAuthConfig,
  ServeAuthMode,
  ServeOAuthConfig,
  ServePolicyConfig,
} from './config/serveTypes.js';
export { compileGlob } from './config/glob.js';
export {
  TOOL_SEARCH_TOOL_NAMES,
  VIEW_NAME_PATTERN,
  VIEW_TOOL_NAME_PATTERN,
} from './config/views.js';
// Views and tool shaping (docs/tool-shaping.md)
export { ToolView, labelledDescription, labelledTitle } from './views/toolView.js';
export type { ToolViewInput, ViewCost, ViewTool } from './views/toolView.js';
export { alwaysName } from './views/viewNames.js';
export { ViewSelection } from './views/viewSelection.js';
export { resolveView } from './views/sessionViews.js';
export {
  CALL_TOOL,
  GET_TOOL_DETAILS,
  META_TOOL_NAMES,
  metaToolDefinitions,
  metaToolTokens,
  SEARCH_TOOLS,
} from './views/metaTools.js';
export type { MetaToolDefinition } from './views/metaTools.js';
export { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, ToolSearchIndex } from './views/toolSearch.js';
export type { SearchableTool, ToolSearchHit } from './views/toolSearch.js';
export { countTokens, toolDefinitionTokens } from './views/toolCost.js';
export {
  DEFAULT_HISTORY,
  DEFAULT_MAX_RESULT_BYTES,
  DEFAULT_REDACT_KEYS,
} from './config/history.js';
export type {
  ConfigDiagnostic,
  ConfigLocation,
  EnvironmentConfig,
  EnvVarRef,
  EnvVarSource,
  HistoryConfig,
  ExecEnvironmentConfig,
  InvalidServerConfig,
  McprtConfig,
  OAuthClientConfig,
  OAuthCredentialsStoreMode,
  OAuthGrant,
  DpopSetting,
  SecretSource,
  IdentityProviderConfig,
  ProtocolVersionSetting,
  SandboxLauncherSetting,
  ServerConfig,
  SshEnvironmentConfig,
  StdioTransportConfig,
  StreamableHttpTransportConfig,
  ToolOverrideConfig,
  TransportConfig,
} from './config/types.js';

// MCP Apps (io.modelcontextprotocol/ui): what hosts declare, what tools name
export {
  MCP_APPS_EXTENSION,
  MCP_APP_MIME_TYPE,
  LEGACY_UI_RESOURCE_URI_KEY,
  declaresMcpApps,
  isAppOnlyTool,
  rewriteToolUiResourceUri,
  toolUiResourceUri,
} from './apps/mcpApps.js';

// Runtime and sessions
export { Runtime, HISTORY_FILE_NAME } from './manager/runtime.js';
export type { RuntimeLoadOptions } from './manager/runtime.js';
export { Session } from './manager/session.js';
export { CallCancel } from './connection/callCancel.js';
export { currentCallOrigin, withCallOrigin } from './connection/callOrigin.js';
// A host that names its calls itself (the app-server's item ids) makes time-ordered ids too.
export { newCallId } from './manager/callId.js';
export type { CallSignal } from './connection/callCancel.js';
export type {
  LiveListing,
  PromptRequest,
  ResourceFilter,
  ResourceReadRequest,
  SkillListRequest,
  CallerIdentity,
  RefusedCallRequest,
  ToolCallRequest,
} from './manager/calls.js';
export type { SessionOptions, SessionEnvironment, SessionEvents } from './manager/sessionTypes.js';
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
export type { StatusFilter } from './manager/statusView.js';
export type {
  ToolCallStarted,
  ToolCallProgress,
  ToolCallCompleted,
} from './manager/toolCallEvents.js';

// What MCP servers send, in the runtime's own types
export type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  McpPrompt,
  PromptMessage,
  McpResource,
  McpResourceTemplate,
  ProgressUpdate,
  ReadResourceResult,
  ResourceContents,
  ServerCapabilities,
  ServerInfo,
  ToolDefinition,
} from './connection/mcpTypes.js';
export type { InventoryTool } from './inventory/inventory.js';
export { SkillVerificationError } from './skills/types.js';
export type {
  SkillEntry,
  SkillFile,
  SkillFileEntry,
  SkillFileRequest,
  SkillListing,
  SkillVerificationReason,
} from './skills/types.js';
export { assignModelToolNames, MAX_TOOL_NAME_LENGTH } from './inventory/naming.js';
export type {
  ElicitationHandler,
  ElicitationRequest,
  ElicitationResponse,
  ServerElicitation,
} from './elicitation/types.js';
export { SERVE_CHAIN_ENV, STDIO_ENV_ALLOW_LIST } from './launch/childEnv.js';

// Tool-call history
export { SqliteHistoryStore, HistoryCursorError } from './history/sqliteStore.js';
export type {
  ToolCallRecord,
  ToolCallStatus,
  HistoryQuery,
  HistoryPage,
  HistorySink,
  HistoryTask,
} from './history/types.js';
// Tool calls run as tasks (docs/tool-calls.md)
export { SessionTasks, TaskNotFoundError } from './manager/sessionTasks.js';
export type { ResumeOptions } from './manager/sessionTasks.js';
export type { TaskRef, TaskState, TaskStatus, TaskWire } from './connection/taskWire.js';
export { redactArguments, redactText, Redactor, capResult, REDACTED } from './history/redact.js';
export type { RedactOptions } from './history/redact.js';

// OAuth
export { RuntimeAuth, hasStaticAuthorization } from './auth/runtimeAuth.js';
export type { CredentialsListener } from './auth/runtimeAuth.js';
export {
  OAuthLoginError,
  TokenRefreshError,
  AuthorizationRequiredError,
  CredentialStoreError,
} from './auth/errors.js';
export { OAuthSecretError } from './auth/secrets.js';
export { WorkloadIdentityRefusedError } from './auth/workloadIdentity.js';
export { DpopUnsupportedError } from './auth/dpop.js';
export { credentialStoreKey, credentialName } from './auth/credentialKey.js';
export { REFRESH_MARGIN_MS } from './auth/credentialSlot.js';
export { CREDENTIALS_FILE_NAME } from './auth/store/fileStore.js';
export { KEYRING_SERVICE } from './auth/store/keyringStore.js';
export type { StoredCredential, CredentialStore } from './auth/store/types.js';
export type {
  AuthStatus,
  MachineClient,
  SecretValue,
  PreRegisteredClient,
  HostClient,
  RuntimeOAuthOptions,
  ClientRegistrationMode,
  OAuthLoginOptions,
  OAuthLoginResult,
  PendingOAuthLogin,
} from './auth/types.js';

// Private files and paths a sandboxed command never sees
export {
  assertPrivatePath,
  UnsafePathError,
  writePrivateFileAtomic,
} from './files/privateFiles.js';
export type { PrivatePathOptions } from './files/privateFiles.js';
export {
  defaultProtectedPaths,
  protectFromSandbox,
  sandboxProtectedPaths,
  SANDBOX_PROTECT_FILE_ENV,
} from './protectedPaths.js';

// Sandbox authority keys
export {
  KILL_GRACE_MS,
  KILL_SETTLE_MS,
  killAllProcessGroups,
  processGroupShutdowns,
} from './launch/processGroups.js';
export {
  SANDBOX_STATE_KEY,
  SANDBOX_STATE_META_KEY,
  SANDBOX_LAUNCHER_KEY,
  advertisesSandboxState,
} from './sandbox/keys.js';
export type { SandboxAuthority } from './sandbox/sessionSandbox.js';

// Tracing (docs/observability.md, Traces): off until the host enables it
export {
  activeTracer,
  enableTracing,
  errorType,
  traced,
  tracingEnabled,
} from './telemetry/tracing.js';
export {
  contextFromHeaders,
  contextFromMeta,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
} from './telemetry/traceContext.js';
