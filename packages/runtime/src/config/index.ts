/** Public API of the config module: locating, loading, validating and editing `config.toml`. */

export { resolveConfigFile } from './paths.js';
export type { ConfigMode, ResolveConfigFileOptions, ResolvedConfigFile } from './paths.js';
export { loadConfig, parseToml } from './load.js';
export { invalidServerNameProblem, SERVER_NAME_PATTERN } from './server.js';
export { environmentIdProblem } from './environment.js';
export { formatKeyPath } from './fields.js';
export type { LoadConfigOptions } from './load.js';
export { ConfigInvalidError, ConfigParseError, ConfigWriteError } from '../errors.js';
export { addServerToFile, removeServerFromFile } from './edit.js';
export type { AddServerOptions } from './edit.js';
export { createLocator, locateKey, scanToml } from './locate.js';
export type { KeyPath, Locator, SourcePosition, TomlEntry, TomlScan } from './locate.js';
export {
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  PROTOCOL_VERSION_SETTINGS,
} from './types.js';
export { launcherPathProblem } from './sandboxLauncher.js';
export { DEFAULT_HISTORY, DEFAULT_MAX_RESULT_BYTES, DEFAULT_REDACT_KEYS } from './history.js';
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
} from './types.js';
