/**
 * How tool search ranks (toolSearch.ts): one search's per-document BM25 and matched-word masks
 * of a MiniSearch index, without MiniSearch's own coordination factor (`Scores`), the best k
 * tools with ties broken by name (`TopK`), and the small numeric helpers both use. Pure logic.
 */

import type MiniSearch from 'minisearch';

import type { SearchableTool } from './toolSearch.js';

/** Scores equal to 6 decimals are ties (then the name decides), so order never rests on ulps. */
export const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** Query words searched at most: each is a bit of a mask (their related words included). */
export const MAX_QUERY_TERMS = 31;

/** Set bits of a 31-bit mask: how many query words matched. */
export function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * One search's results of one MiniSearch index, per document: BM25 without MiniSearch's
 * coordination factor (its score is the sum times the number of query words matched; the tool's
 * factor counts the words its definition and location match together) and the words as a mask.
 * Valid where `stamp` is the search's.
 */
export class Scores {
  readonly raw: Float64Array;
  readonly mask: Int32Array;
  readonly stamp: Uint32Array;
  /** The highest `raw` and the most words matched by any document of this search. */
  best = 0;
  mostWords = 0;

  constructor(size: number) {
    this.raw = new Float64Array(size);
    this.mask = new Int32Array(size);
    this.stamp = new Uint32Array(size);
  }

  take(
    results: ReturnType<MiniSearch['search']>,
    bits: ReadonlyMap<string, number>,
    stamp: number,
  ): number[] {
    this.best = 0;
    this.mostWords = 0;
    const ids: number[] = [];
    for (const r of results) {
      const id = r.id as number;
      let mask = 0;
      for (const t of r.queryTerms) mask |= bits.get(t) ?? 0;
      const raw = r.score / Math.max(1, r.queryTerms.length);
      this.raw[id] = raw;
      this.mask[id] = mask;
      this.stamp[id] = stamp;
      this.best = Math.max(this.best, raw);
      this.mostWords = Math.max(this.mostWords, r.queryTerms.length);
      ids.push(id);
    }
    return ids;
  }
}

/** The best `k` offers, ties by tool name. */
export class TopK {
  readonly items: { index: number; score: number }[] = [];

  constructor(
    private readonly k: number,
    private readonly tools: readonly SearchableTool[],
  ) {}

  get full(): boolean {
    return this.items.length === this.k;
  }

  /** The k-th score (when full). */
  get last(): number {
    return this.items[this.items.length - 1]?.score ?? -Infinity;
  }

  /** Whether (index, score) ranks before `b`. */
  private before(index: number, score: number, b: { index: number; score: number }): boolean {
    return this.ranksBefore(index, score, b.index, b.score);
  }

  /** Whether tool `a` with `aScore` ranks before tool `b` with `bScore` (ties: by name). */
  ranksBefore(a: number, aScore: number, b: number, bScore: number): boolean {
    return aScore > bScore || (aScore === bScore && this.tools[a]!.name < this.tools[b]!.name);
  }

  offer(index: number, score: number): void {
    const items = this.items;
    if (items.length === this.k && !this.before(index, score, items[items.length - 1]!)) return;
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.before(items[mid]!.index, items[mid]!.score, { index, score })) lo = mid + 1;
      else hi = mid;
    }
    items.splice(lo, 0, { index, score });
    if (items.length > this.k) items.pop();
  }
}
