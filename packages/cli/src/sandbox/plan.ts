/**
 * What `mcprt sandbox` will do with a command, independent of the state shape it came from:
 * run it as is (the state grants full access, or the host sandboxes already), or run it in
 * bubblewrap with these file-system rules, this network setting and this working directory.
 */

export type FsAccess = 'read' | 'write' | 'deny';

export interface FsRule {
  /** Absolute path as the state names it (resolved against the real file system later). */
  readonly path: string;
  readonly access: FsAccess;
  /** Where the rule came from, for messages (`permissionProfile.file_system.entries[2]`). */
  readonly origin: string;
}

export type SandboxPlan =
  | {
      readonly kind: 'unsandboxed';
      /** The policy that grants it (`dangerFullAccess`, `externalSandbox`). */
      readonly policy: string;
      readonly cwd: string;
    }
  | {
      readonly kind: 'bwrap';
      readonly rules: readonly FsRule[];
      readonly network: boolean;
      readonly cwd: string;
    };

/** Where the launcher runs: its own cwd and `$TMPDIR` (used by `tmpdir` entries). */
export interface LauncherContext {
  readonly cwd: string;
  readonly tmpdir: string | null;
}

/** System directories the `minimal` special path stands for (what running programs needs). */
export const MINIMAL_PATHS = [
  '/bin',
  '/sbin',
  '/usr',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
] as const;
