/**
 * What each registration's server last listed besides tools — resources, resource templates,
 * prompts — so that a registration whose tools stay listed while it restarts, or after it was
 * lost with its environment (registrationSet.ts `standsIn`), keeps these listed too: a client of
 * `mcprt serve` must not see a restarting server's resources vanish while its tools stay, and a
 * read of one of them waits for the restart like a tool call. Keyed by the registration object,
 * so a replaced registration (a config change) never inherits another's listing — except a
 * revived one, which takes over the listing of the registration it replaces (`carry`).
 */

import type { ListItems } from '../connection/inventorySync.js';
import type { Registration } from './registration.js';

export type ListingKind = 'resources' | 'resourceTemplates' | 'prompts';

type Listings = { -readonly [K in ListingKind]?: readonly ListItems[K][] };

export class LastListings {
  private readonly byRegistration = new WeakMap<Registration, Listings>();

  /** `reg`'s server listed `items` (the whole list, all pages). */
  remember<K extends ListingKind>(
    reg: Registration,
    kind: K,
    items: readonly ListItems[K][],
  ): void {
    const listings = this.byRegistration.get(reg) ?? {};
    (listings as Record<K, readonly ListItems[K][]>)[kind] = items;
    this.byRegistration.set(reg, listings);
  }

  /** What `reg`'s server last listed of `kind`; undefined when it never listed it. */
  recall<K extends ListingKind>(reg: Registration, kind: K): readonly ListItems[K][] | undefined {
    return this.byRegistration.get(reg)?.[kind] as readonly ListItems[K][] | undefined;
  }

  /** `to` replaces `from` (a revival): it stands in with `from`'s listings until it lists its own. */
  carry(from: Registration, to: Registration): void {
    const listings = this.byRegistration.get(from);
    if (listings !== undefined) this.byRegistration.set(to, { ...listings });
  }
}
