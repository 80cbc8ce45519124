// Types of codex.mjs, for the TypeScript tests that run Codex as a real client.
export const CODEX_VERSION: string;
export class CodexUnavailableError extends Error {
  readonly code: 'codexUnavailable';
}
/** Install (once, outside the repository) and return the native binary and its version. */
export function ensureCodex(log?: (line: string) => void): { bin: string; version: string };
