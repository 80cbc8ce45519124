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
export { Runtime, HISTORY_FILE_NAME } from './manager/runtime.js';
export { SqliteHistoryStore, HistoryCursorError } from './history/sqliteStore.js';
export type {
  ToolCallRecord,
  ToolCallStatus,
  HistoryQuery,
  HistoryPage,
  HistorySink,
} from './history/types.js';
export { redactArguments, redactText, Redactor, capResult, REDACTED } from './history/redact.js';
export type { RedactOptions } from './history/redact.js';
export type {
  ToolCallStarted,
  ToolCallProgress,
  ToolCallCompleted,
} from './manager/toolCallEvents.js';
export type { RuntimeLoadOptions } from './manager/runtime.js';
export { Session } from './manager/session.js';
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
export { SkillVerificationError } from './skills/types.js';
export type {
  SkillEntry,
  SkillFile,
  SkillFileEntry,
  SkillFileRequest,
  SkillListing,
  SkillVerificationReason,
} from './skills/types.js';
export type {
  ElicitationHandler,
  ElicitationRequest,
  ElicitationResponse,
} from './elicitation/types.js';
export { assignModelToolNames, MAX_TOOL_NAME_LENGTH } from './inventory/naming.js';
export { STDIO_ENV_ALLOW_LIST } from './launch/childEnv.js';
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
