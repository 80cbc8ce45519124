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
export const SYSTEM_DIRS: readonly string[];
export const TOOL_ENV: Readonly<{ PATH: string; DEBIAN_FRONTEND: string }>;
export interface StatFacts {
  readonly uid: number;
  readonly mode: number;
  readonly isFile: boolean;
}
export function toolProblem(
  file: StatFacts,
  folder: Omit<StatFacts, 'isFile'>,
  folderPath: string,
): string | null;
export type Resolved = { path: string; real: string } | { refusal: string } | null;
export function resolveSystemTool(name: string, dirs?: readonly string[]): Resolved;
export interface SystemCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
}
export function systemCommand(
  tool: string,
  args: readonly string[],
  options?: { sudo?: boolean; resolve?: (name: string) => Resolved },
): SystemCommand;
