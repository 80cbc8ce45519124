/**
 * The tool search index behind `search_tools` (docs/tool-shaping.md): BM25 ranking (MiniSearch)
 * over what a model would read to pick a tool — its name split into words, title, description,
 * parameter names and descriptions — and over where it runs — server name, environment id and the
 * environment's `description` — so "run the tests on buildbox" ranks buildbox's test tool above
 * same-named tools elsewhere. Words are stemmed and folded through a small thesaurus
 * (searchTerms.ts). One index describes one fixed set of tools: it is immutable, build a new one
 * when the set changes.
 *
 * Two MiniSearch indexes, one of distinct definitions and one of distinct locations: the same
 * server in ten environments lists the same definitions ten times, and indexing each copy would
 * make build and search time grow with the copies (and count a word's copies as commonness). A
 * tool's score is its definition's BM25 plus its location's, times the number of query words the
 * two match together (MiniSearch's own coordination factor); whole definitions whose best possible
 * tool cannot reach the k-th score are skipped. Words naming the tool's own server or environment
 * — in a prefixed name (`buildbox__shell__run_tests`) or a view's label (`[shell@buildbox] …`) —
 * count for its location only, not a second time in its definition.
 *
 * Ranking parameters were chosen on the retrieval eval (`npm run eval:search`), whose landscape is
 * flat around them; fuzzy matching is off (at 10,000 tools it doubled search time and moved the
 * eval's ranks as often down as up: a model's queries have few typos).
 */

import MiniSearch from 'minisearch';
import type { SearchOptions } from 'minisearch';

import type { OwnWords } from './searchDocuments.js';
import {
  locationLabel,
  record,
  text,
  unlabelledDescription,
  unlabelledTitle,
  Words,
} from './searchDocuments.js';
import { MAX_QUERY_TERMS, popcount, round6, Scores, TopK } from './searchRanking.js';
import { normalizeTerm, RELATED_WEIGHT, relatedTerms, tokenize } from './searchTerms.js';

export interface SearchableTool {
  /** The model-visible name (what `call_tool` takes). */
  readonly name: string;
  readonly server: string;
  /** null: the thread-wide scope. */
  readonly environmentId: string | null;
  /** The environment's `description` config key. */
  readonly environmentDescription: string | null;
  /** The definition as listed (a view's location label on it is recognised, see above). */
  readonly tool: {
    readonly name: string;
    readonly title?: unknown;
    readonly description?: unknown;
    readonly inputSchema?: unknown;
    readonly annotations?: unknown;
  };
}

export interface ToolSearchHit {
  readonly name: string;
  readonly server: string;
  readonly environmentId: string | null;
  /** The description (without a view's location label), cut near {@link HIT_DESCRIPTION_CHARS}. */
  readonly description: string;
  /** Relevance (higher is better), rounded to 6 decimals; comparable within one search only. */
  readonly score: number;
}

export const DEFAULT_SEARCH_LIMIT = 8;
export const MAX_SEARCH_LIMIT = 50;
/** A hit's description is cut at a word near this many characters (get_tool_details: all). */
export const HIT_DESCRIPTION_CHARS = 200;

/** Field boosts: a word of the tool's name or of its place says more than one of a description. */
const DEFINITION_BOOST = { name: 2, title: 1, description: 1, params: 0.5 };
const LOCATION_BOOST = { server: 2, environment: 3, place: 1.5 };
/** Prefix matching from this many characters on ("dir" would match too much). */
const PREFIX_MIN_CHARS = 4;
const PREFIX_WEIGHT = 0.5;

type DefinitionField = keyof typeof DEFINITION_BOOST;
type LocationField = keyof typeof LOCATION_BOOST;
type Doc<F extends string> = { readonly id: number } & Readonly<Record<F, string>>;

function newIndex<F extends string>(
  fields: readonly F[],
  boost: Record<F, number>,
): MiniSearch<Doc<F>> {
  return new MiniSearch<Doc<F>>({
    fields: [...fields],
    storeFields: [],
    // Documents hold normalized words already.
    tokenize: (s) => s.split(' '),
    processTerm: (t) => t || null,
    searchOptions: {
      boost,
      prefix: (term) => term.length >= PREFIX_MIN_CHARS,
      fuzzy: false,
      weights: { prefix: PREFIX_WEIGHT, fuzzy: 0.45 },
    },
  });
}

export class ToolSearchIndex {
  private readonly definitionScores: Scores;
  private readonly locationScores: Scores;
  private stamp = 0;

  private constructor(
    private readonly tools: readonly SearchableTool[],
    private readonly definitionOf: Int32Array,
    private readonly locationOf: Int32Array,
    private readonly byDefinition: readonly number[][],
    private readonly byLocation: readonly number[][],
    private readonly definitions: MiniSearch<Doc<DefinitionField>>,
    private readonly locations: MiniSearch<Doc<LocationField>>,
  ) {
    this.definitionScores = new Scores(byDefinition.length);
    this.locationScores = new Scores(byLocation.length);
  }

  /** Index `tools` (the view's full set; each is found by its `name`). */
  static build(tools: readonly SearchableTool[]): ToolSearchIndex {
    const words = new Words();
    const definitionIds = new Map<string, number>();
    const locationIds = new Map<string, number>();
    const definitionDocs: Doc<DefinitionField>[] = [];
    const locationDocs: Doc<LocationField>[] = [];
    const byDefinition: number[][] = [];
    const byLocation: number[][] = [];
    const definitionOf = new Int32Array(tools.length);
    const locationOf = new Int32Array(tools.length);
    /** Per location: the words naming its server and environment. */
    const ownWords: OwnWords[] = [];

    /** Per location: its label (`server@env`). */
    const labels: string[] = [];
    let location = -1;
    for (let i = 0; i < tools.length; i++) {
      const t = tools[i]!;
      const envDescription = t.environmentDescription ?? '';
      // A server's tools are usually listed together: most tools are where the last one was.
      const last = location >= 0 ? tools[byLocation[location]![0]!] : undefined;
      if (
        last === undefined ||
        last.server !== t.server ||
        last.environmentId !== t.environmentId ||
        (last.environmentDescription ?? '') !== envDescription
      ) {
        const key = `${t.server}\u0000${t.environmentId ?? ''}\u0000${envDescription}`;
        const known = locationIds.get(key);
        if (known !== undefined) location = known;
        else {
          location = locationDocs.length;
          locationIds.set(key, location);
          const server = words.of(t.server);
          const environment = words.of(t.environmentId ?? '');
          const own = [...new Set([...server.terms, ...environment.terms])];
          ownWords.push({ words: own, key: own.join(' ') });
          labels.push(locationLabel(t));
          locationDocs.push({
            id: location,
            server: server.joined,
            environment: environment.joined,
            place: words.of(envDescription).joined,
          });
          byLocation.push([]);
        }
      }
      const own = ownWords[location]!;
      const annotationTitle = text(record(t.tool.annotations)?.['title']);
      const label = labels[location]!;
      const title = unlabelledTitle(t, label);
      const parts = [
        words.name(t, own),
        words.without(
          words.of(
            annotationTitle === '' || annotationTitle === title
              ? title
              : `${title} ${annotationTitle}`,
          ),
          own,
        ),
        words.without(words.of(unlabelledDescription(t, label)), own),
        words.of(words.paramsOf(t.tool.inputSchema)),
      ] as const;
      const definitionKey = `${parts[0].key} ${parts[1].key} ${parts[2].key} ${parts[3].key}`;
      let definition = definitionIds.get(definitionKey);
      if (definition === undefined) {
        definition = definitionDocs.length;
        definitionIds.set(definitionKey, definition);
        definitionDocs.push({
          id: definition,
          name: parts[0].joined,
          title: parts[1].joined,
          description: parts[2].joined,
          params: parts[3].joined,
        });
        byDefinition.push([]);
      }
      definitionOf[i] = definition;
      locationOf[i] = location;
      byDefinition[definition]!.push(i);
      byLocation[location]!.push(i);
    }

    const definitions = newIndex(
      Object.keys(DEFINITION_BOOST) as DefinitionField[],
      DEFINITION_BOOST,
    );
    definitions.addAll(definitionDocs);
    const locations = newIndex(Object.keys(LOCATION_BOOST) as LocationField[], LOCATION_BOOST);
    locations.addAll(locationDocs);
    return new ToolSearchIndex(
      tools,
      definitionOf,
      locationOf,
      byDefinition,
      byLocation,
      definitions,
      locations,
    );
  }

  get size(): number {
    return this.tools.length;
  }

  /** The best `limit` tools for `query`, best first (ties by name); a blank query finds none. */
  search(query: string, limit: number = DEFAULT_SEARCH_LIMIT): ToolSearchHit[] {
    const terms = new Set<string>();
    for (const word of tokenize(query)) {
      const term = normalizeTerm(word);
      if (term !== null && terms.size < MAX_QUERY_TERMS) terms.add(term);
    }
    if (terms.size === 0) return [];
    const all = [...terms];
    for (const term of terms) {
      for (const r of relatedTerms(term)) {
        if (all.length < MAX_QUERY_TERMS && !all.includes(r)) all.push(r);
      }
    }
    const bits = new Map(all.map((t, i) => [t, 1 << i]));
    const options: SearchOptions = {
      // The query's words are normalized already.
      tokenize: (t) => [t],
      processTerm: (t) => t,
      boostTerm: (t) => (terms.has(t) ? 1 : RELATED_WEIGHT),
    };
    const queries = { queries: all, combineWith: 'OR' as const };
    const stamp = this.nextStamp();
    const d = this.definitionScores;
    const l = this.locationScores;
    const definitionHits = d.take(this.definitions.search(queries, options), bits, stamp);
    const locationHits = l.take(this.locations.search(queries, options), bits, stamp);

    // Tools of the best definitions first; a definition whose best possible tool (its BM25 plus
    // the best location's, times every word either could match) is below the k-th is skipped
    // with the rest. Then tools only their location matches, best location first. Each
    // definition's best copy competes for the first places; its copies in other locations come
    // only after every distinct tool found (a query that names no environment would otherwise
    // get one tool once per environment, and an agent the same answer several times).
    const want = clampLimit(limit);
    const top = new TopK(want, this.tools);
    const copies = new TopK(want, this.tools);
    const bound = (id: number): number =>
      (d.raw[id]! + l.best) * Math.min(all.length, popcount(d.mask[id]!) + l.mostWords);
    definitionHits.sort((a, b) => bound(b) - bound(a));
    for (const id of definitionHits) {
      if (top.full && round6(bound(id)) < top.last) break;
      const raw = d.raw[id]!;
      const mask = d.mask[id]!;
      let best = -1;
      let bestScore = -Infinity;
      for (const i of this.byDefinition[id]!) {
        const at = this.locationOf[i]!;
        const score =
          l.stamp[at] === stamp
            ? round6((raw + l.raw[at]!) * popcount(mask | l.mask[at]!))
            : round6(raw * popcount(mask));
        if (best < 0 || top.ranksBefore(i, score, best, bestScore)) {
          if (best >= 0) copies.offer(best, bestScore);
          best = i;
          bestScore = score;
        } else {
          copies.offer(i, score);
        }
      }
      if (best >= 0) top.offer(best, bestScore);
    }
    const alone = (id: number): number => round6(l.raw[id]! * popcount(l.mask[id]!));
    locationHits.sort((a, b) => alone(b) - alone(a));
    const seen = new Set<number>();
    for (const id of locationHits) {
      const score = alone(id);
      if (top.full && score < top.last) break;
      for (const i of this.byLocation[id]!) {
        const definition = this.definitionOf[i]!;
        if (d.stamp[definition] === stamp) continue;
        if (seen.has(definition)) copies.offer(i, score);
        else {
          seen.add(definition);
          top.offer(i, score);
        }
      }
    }
    const ranked = top.full ? top.items : [...top.items, ...copies.items].slice(0, want);

    return ranked.map(({ index, score }) => {
      const tool = this.tools[index]!;
      return {
        name: tool.name,
        server: tool.server,
        environmentId: tool.environmentId,
        description: summarize(unlabelledDescription(tool) || unlabelledTitle(tool)),
        score,
      };
    });
  }

  private nextStamp(): number {
    this.stamp = this.stamp === 0xffffffff ? 1 : this.stamp + 1;
    if (this.stamp === 1) {
      this.definitionScores.stamp.fill(0);
      this.locationScores.stamp.fill(0);
    }
    return this.stamp;
  }
}

/** Whitespace collapsed, cut at a word boundary near `max` characters. */
export function summarize(description: string, max = HIT_DESCRIPTION_CHARS): string {
  // Only the start matters (some descriptions run to thousands of characters).
  const flat = description
    .trimStart()
    .slice(0, 2 * max)
    .replace(/\s+/g, ' ')
    .trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

/** `limit` as a whole number in [1, MAX_SEARCH_LIMIT] (NaN: the default). */
export function clampLimit(limit: number): number {
  if (Number.isNaN(limit)) return DEFAULT_SEARCH_LIMIT;
  return Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(limit)));
}
