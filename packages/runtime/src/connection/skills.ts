/**
 * SEP-2640 skills of one connection, on the SDK's `SkillsClient`: `list()` walks `skills/list`
 * (no file is read — SEP-2640 forbids fetching a skill's files before the host loads it) and
 * keeps invalid entries apart instead of failing the listing; `read()` fetches one file of one
 * skill when the host needs it and verifies it against the entry (listed, size, digest, and for
 * `SKILL.md` the frontmatter). A failed check is a `SkillVerificationError` naming the
 * registration and the file; its content is never returned.
 */

import type { Client } from '@modelcontextprotocol/client';
import {
  SkillsClient,
  SkillVerificationError as SdkSkillVerificationError,
} from '@modelcontextprotocol/client/ext/skills';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';

import { RequestFailedError } from '../errors.js';
import { translateRequestError } from './requestErrors.js';
import type { SkillEntry, SkillFile, SkillListing } from '../skills/types.js';
import { SkillVerificationError } from '../skills/types.js';

export interface SkillRequestOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export class ServerSkills {
  private readonly skills: SkillsClient;

  constructor(
    client: Client,
    /** The registration (`name` or `name@environment`), for messages. */
    private readonly label: string,
  ) {
    this.skills = new SkillsClient(client, { skipInvalid: true });
  }

  /** The server declared the skills extension. */
  get supported(): boolean {
    return this.skills.supported;
  }

  async list(options: SkillRequestOptions): Promise<SkillListing> {
    if (!this.skills.supported) return { skills: [], invalid: [] };
    try {
      const listing = await this.skills.list({}, requestOptions(options));
      return { skills: listing.skills as SkillEntry[], invalid: listing.invalid };
    } catch (error) {
      throw this.failed('skills/list', error);
    }
  }

  /**
   * One file of `skill` (an entry from `list()`): `path` relative to the skill's root
   * (`references/FORMS.md`) or an absolute URI; default the skill's own `SKILL.md`.
   */
  async read(skill: SkillEntry, path: string | undefined, options: SkillRequestOptions) {
    try {
      const file = await this.skills.read(skill as Skill, path, requestOptions(options));
      return file as SkillFile;
    } catch (error) {
      if (SdkSkillVerificationError.isInstance(error)) {
        throw new SkillVerificationError(
          error.reason,
          error.uri,
          this.label,
          `skill file of MCP server \`${this.label}\` failed verification (${error.reason}): ${error.message}`,
          { cause: error },
        );
      }
      throw this.failed('resources/read', error);
    }
  }

  private failed(method: string, error: unknown): RequestFailedError {
    const message = error instanceof Error ? error.message : String(error);
    // The server's own JSON-RPC error travels along for hosts that pass it on.
    const { serverError } = translateRequestError(error, { ended: false, closeReason: () => '' });
    return new RequestFailedError(`${method} to MCP server \`${this.label}\` failed: ${message}`, {
      cause: error,
      serverError,
    });
  }
}

function requestOptions(options: SkillRequestOptions) {
  return { timeout: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) };
}
