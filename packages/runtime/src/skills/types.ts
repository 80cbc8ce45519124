/**
 * Public shapes of SEP-2640 skills (the `io.modelcontextprotocol/skills` extension) as the
 * runtime offers them: a server's skill entries (listed without reading any file), one file of a
 * skill read on demand and verified against its entry (size, digest and, for `SKILL.md`, the
 * frontmatter), and the error a failed verification raises. Approval and loading policy stay
 * with the host.
 */

import { McprtError } from '../errors.js';

/** One file a skill entry lists: the host verifies a read against `size` and `digest`. */
export interface SkillFileEntry {
  readonly uri: string;
  /** `sha256:<hex>`. */
  readonly digest: string;
  readonly size: number;
}

/** A skill as the server lists it. */
export interface SkillEntry {
  /** The skill's `SKILL.md` URI. */
  readonly uri: string;
  /** At least `name` and `description`; `SKILL.md`'s frontmatter must equal it. */
  readonly frontmatter: Readonly<Record<string, unknown>> & {
    readonly name: string;
    readonly description: string;
  };
  /** The skill's files, or `dynamic` (generated: only the frontmatter is verified). */
  readonly resources: readonly SkillFileEntry[] | 'dynamic';
  readonly _meta?: Readonly<Record<string, unknown>>;
}

export interface SkillListing {
  readonly skills: readonly SkillEntry[];
  /** Entries the server sent that are not valid skills (left out, with the reason). */
  readonly invalid: readonly {
    readonly index: number;
    readonly uri?: string;
    readonly reason: string;
  }[];
}

/** One file of a skill, read and verified. */
export interface SkillFile {
  readonly uri: string;
  readonly mimeType?: string;
  /** Exactly the bytes the entry's digest covers. */
  readonly bytes: Uint8Array;
  readonly text?: string;
  /** Size and digest were checked (false only for `dynamic` skills). */
  readonly verified: boolean;
  /** `SKILL.md` only: its frontmatter (equal to the entry's) and the markdown after it. */
  readonly frontmatter?: Readonly<Record<string, unknown>>;
  readonly body?: string;
}

export type SkillVerificationReason = 'unlisted' | 'size' | 'digest' | 'frontmatter';

/**
 * A skill file failed verification: not listed in the entry, another size or digest, or a
 * `SKILL.md` whose frontmatter differs from the entry. Its content must not be used (for
 * `SKILL.md`: the skill must not be loaded).
 */
export class SkillVerificationError extends McprtError {
  constructor(
    readonly reason: SkillVerificationReason,
    readonly uri: string,
    /** The registration (`name` or `name@environment`). */
    readonly server: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('skill_verification_failed', message, options);
  }
}

/** `Session.readSkillFile`: which registration, which listed skill, which of its files. */
export interface SkillFileRequest {
  readonly server: string;
  readonly environmentId?: string | null;
  /** The entry from `listSkills`. */
  readonly skill: SkillEntry;
  /** Relative to the skill's root (`references/FORMS.md`) or an absolute URI; default `SKILL.md`. */
  readonly path?: string;
  readonly signal?: AbortSignal;
}
