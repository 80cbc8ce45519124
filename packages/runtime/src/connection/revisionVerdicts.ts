/**
 * What each registration scope negotiated, remembered for the runtime's lifetime (in memory,
 * keyed by scope and launch identity — command, args, env, URL — so a changed launch is probed
 * afresh), so a restart or reconnect does not probe again (docs/adr/0018-revision-probe.md):
 * a 2026 verdict keeps the server's `server/discover` result, adopted without a round trip
 * while its `ttlMs` lasts and afterwards pinned to the same revision (the pin re-reads
 * discover); a 2025 verdict is dated and trusted for `LEGACY_VERDICT_MAX_AGE_MS`, then probed
 * again so a server that gained 2026 is noticed. A refused verdict is forgotten and the scope is
 * probed afresh (connectRoute.ts). Pure bookkeeping: no I/O.
 */

import type { DiscoverResult } from '@modelcontextprotocol/client';

import type { RegistrationScope } from '../scope.js';
import { scopeKey } from '../scope.js';

/** How long a 2025 verdict is trusted before the scope is probed again. */
export const LEGACY_VERDICT_MAX_AGE_MS = 60 * 60 * 1000;
/** Longest a discover result is adopted, whatever `ttlMs` it carries (the SDK's cache cap). */
export const MAX_DISCOVER_TTL_MS = 24 * 60 * 60 * 1000;

export type RevisionVerdict =
  | {
      readonly era: 'modern';
      readonly version: string;
      readonly discover: DiscoverResult;
      /** Until when `discover` may be adopted without asking (its `ttlMs`). */
      readonly freshUntil: number;
    }
  | { readonly era: 'legacy'; readonly at: number };

/** One scope's entry: read, record, forget. */
export interface VerdictSlot {
  get(): RevisionVerdict | undefined;
  /** Whether a modern verdict's discover result may still be adopted (within its `ttlMs`). */
  fresh(verdict: RevisionVerdict): boolean;
  /** `discover` undefined: the scope speaks 2025 only. */
  record(outcome: { version: string; discover: DiscoverResult | undefined }): void;
  forget(): void;
}

export class RevisionVerdicts {
  private readonly verdicts = new Map<string, RevisionVerdict>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The slot of one scope launched as `identity` (an opaque launch description). */
  slot(scope: RegistrationScope, identity: string): VerdictSlot {
    const key = `${scopeKey(scope)}\u0000${identity}`;
    return {
      get: () => this.current(key),
      fresh: (verdict) => verdict.era === 'modern' && this.now() < verdict.freshUntil,
      record: ({ version, discover }) => {
        const now = this.now();
        const ttl = typeof discover?.ttlMs === 'number' && discover.ttlMs > 0 ? discover.ttlMs : 0;
        this.verdicts.set(
          key,
          discover === undefined
            ? { era: 'legacy', at: now }
            : {
                era: 'modern',
                version,
                discover,
                freshUntil: now + Math.min(ttl, MAX_DISCOVER_TTL_MS),
              },
        );
      },
      forget: () => void this.verdicts.delete(key),
    };
  }

  /** Forget every verdict of `scope` (its credentials changed: another authorization context). */
  forgetScope(scope: RegistrationScope): void {
    const prefix = `${scopeKey(scope)}\u0000`;
    for (const key of [...this.verdicts.keys()])
      if (key.startsWith(prefix)) this.verdicts.delete(key);
  }

  private current(key: string): RevisionVerdict | undefined {
    const verdict = this.verdicts.get(key);
    if (verdict?.era === 'legacy' && this.now() - verdict.at >= LEGACY_VERDICT_MAX_AGE_MS) {
      this.verdicts.delete(key);
      return undefined;
    }
    return verdict;
  }
}
