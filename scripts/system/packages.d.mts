// Types of packages.mjs for the tests that import it.
export interface SystemNeed {
  readonly tool: string;
  readonly packages: readonly string[];
}
export const SYSTEM_NEEDS: readonly SystemNeed[];
export function pathLookup(path?: string): (tool: string) => boolean;
export function missingNeeds(
  lookup: (tool: string) => boolean,
  needs?: readonly SystemNeed[],
): SystemNeed[];
export function isDebianLike(osRelease: string | null): boolean;
export function missingLines(missing: readonly SystemNeed[]): string[];
export type Decision =
  { action: 'none' } | { action: 'install'; sudo: boolean } | { action: 'stop'; lines: string[] };
export function decide(facts: {
  missing: readonly SystemNeed[];
  osRelease: string | null;
  isRoot: boolean;
  sudo: boolean;
  aptGet: boolean;
  installAllowed: boolean;
}): Decision;
export function packagesToInstall(
  missing: readonly SystemNeed[],
  available: (pkg: string) => boolean,
): string[];
export function readOsRelease(
  readFile: (path: string, encoding: 'utf8') => string,
  path?: string,
): string | null;
