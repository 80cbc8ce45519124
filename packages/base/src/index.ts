/**
 * `@mcprt/base`: primitives the runtime, the app-server, the SDK and the front ends share, each
 * written once (docs/adr/0015-shared-primitives.md). No dependencies beyond Node itself; nothing
 * MCP- or protocol-specific.
 */

export { writeFileAtomicSync } from './atomicWrite.js';
export type { AtomicWriteOptions } from './atomicWrite.js';
export { backoffDelay } from './backoff.js';
export type { BackoffOptions } from './backoff.js';
export { Coalescer } from './coalescer.js';
export { acquireFileLock, FileLockTimeoutError, withFileLock } from './fileLock.js';
export type { FileLockOptions } from './fileLock.js';
export { DEFAULT_MAX_LINE_BYTES, LineFramer, LineTooLongError } from './lineFramer.js';
export type { LineFramerOptions, OverflowPolicy } from './lineFramer.js';
export {
  bearerMatches,
  bracketed,
  checkListenerOptions,
  isLoopbackHost,
  ListenError,
  MIN_TOKEN_LENGTH,
  unbracket,
} from './listenerGuard.js';
export { LineTail } from './lineTail.js';
export { Listeners } from './listeners.js';
export type { Unsubscribe } from './listeners.js';
export type { Mutable } from './mutable.js';
export { realPathIfAny } from './realPath.js';
export { PendingRequests } from './pendingRequests.js';
export { ProcessWarmUp } from './processWarmUp.js';
export type { Outcome, PendingOptions, PendingRequestsOptions } from './pendingRequests.js';
export { SchemaValidatorCache } from './schemaValidatorCache.js';
export type { SchemaValidatorProvider } from './schemaValidatorCache.js';
export { scopeLabel } from './scopeLabel.js';
export type { LabelledScope } from './scopeLabel.js';
