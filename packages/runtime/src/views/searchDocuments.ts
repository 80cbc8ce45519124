/**
 * The words tool search indexes (toolSearch.ts), per build: each distinct text split once however
 * often it repeats (`Words`), a definition's parameter names and descriptions, and titles and
 * descriptions without the `server@env` label a view puts on them (their location is indexed on
 * its own). Pure logic.
 */

import { normalizeTerm, tokenize } from './searchTerms.js';
import type { SearchableTool } from './toolSearch.js';

/** Normalized words, as MiniSearch gets them (space-separated), and a short key for them. */
export interface Part {
  readonly key: string;
  readonly joined: string;
}

/** The words of one distinct text. */
export interface TextWords extends Part {
  readonly terms: readonly string[];
  readonly set: ReadonlySet<string>;
}

/** The words naming a location's server and environment (`key`: them, joined). */
export interface OwnWords {
  readonly words: readonly string[];
  readonly key: string;
}

/**
 * Per build: the words of each distinct text, split once however often the text repeats, and
 * short keys for them, so that telling two definitions apart never compares their whole texts.
 */
export class Words {
  private readonly texts = new Map<string, TextWords>();
  private readonly words = new Map<string, string | null>();
  private readonly params = new WeakMap<object, string>();
  private readonly parts = new Map<string, Part>();
  private readonly joined = new Map<string, number>();

  of(text: string): TextWords {
    let entry = this.texts.get(text);
    if (entry === undefined) {
      const terms: string[] = [];
      for (const word of tokenize(text)) {
        let term = this.words.get(word);
        if (term === undefined) {
          term = normalizeTerm(word);
          this.words.set(word, term);
        }
        if (term !== null) terms.push(term);
      }
      const key = `${this.texts.size}`;
      entry = { key, terms, set: new Set(terms), joined: terms.join(' ') };
      this.texts.set(text, entry);
    }
    return entry;
  }

  /** The words of `text` but a location's own. */
  without(text: TextWords, own: OwnWords): Part {
    if (!own.words.some((w) => text.set.has(w))) return text;
    return this.part(`${text.key}/${own.key}`, text.terms, own);
  }

  /**
   * The words of a tool's name but its location's own. A name prefixed with its environment and
   * server (`env__server__tool`, `server__tool`) is looked up without them, so the tool part is
   * split once per build however many environments list it.
   */
  name(t: SearchableTool, own: OwnWords): Part {
    let rest = t.name;
    const env = t.environmentId;
    if (env !== null && rest.startsWith(`${env}__`)) rest = rest.slice(env.length + 2);
    if (rest.startsWith(`${t.server}__`)) rest = rest.slice(t.server.length + 2);
    if (rest !== t.tool.name && t.name !== t.tool.name) rest = `${rest} ${t.tool.name}`;
    return this.without(this.of(rest), own);
  }

  private part(key: string, terms: readonly string[], own: OwnWords): Part {
    let part = this.parts.get(key);
    if (part === undefined) {
      // Keyed by content: `list_directory` of every environment is one definition.
      const joined = terms.filter((t) => !own.words.includes(t)).join(' ');
      let id = this.joined.get(joined);
      if (id === undefined) {
        id = this.joined.size;
        this.joined.set(joined, id);
      }
      part = { key: `p${id}`, joined };
      this.parts.set(key, part);
    }
    return part;
  }

  /** Parameter text of an input schema (the same schema object is walked once). */
  paramsOf(schema: unknown): string {
    if (typeof schema !== 'object' || schema === null) return '';
    let value = this.params.get(schema);
    if (value === undefined) {
      value = paramText(schema);
      this.params.set(schema, value);
    }
    return value;
  }
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Parameter names, titles, descriptions and string enum values from `inputSchema.properties`,
 * and one level further (an object property's properties, an array's item properties).
 */
export function paramText(schema: unknown): string {
  const parts: string[] = [];
  const walk = (properties: unknown, depth: number): void => {
    const props = record(properties);
    if (props === undefined) return;
    for (const [key, raw] of Object.entries(props)) {
      parts.push(key);
      const prop = record(raw);
      if (prop === undefined) continue;
      parts.push(text(prop['title']), text(prop['description']));
      if (Array.isArray(prop['enum'])) {
        for (const v of prop['enum']) if (typeof v === 'string') parts.push(v);
      }
      if (depth === 0) {
        walk(prop['properties'], 1);
        walk(record(prop['items'])?.['properties'], 1);
      }
    }
  };
  walk(record(schema)?.['properties'], 0);
  return parts.join(' ');
}

/** `server@env` (thread-wide: `server`), as views label titles and descriptions. */
export function locationLabel(t: SearchableTool): string {
  return t.environmentId === null ? t.server : `${t.server}@${t.environmentId}`;
}

/** A description without a leading `[server@env]` label of its own location. */
export function unlabelledDescription(t: SearchableTool, label = locationLabel(t)): string {
  const description = text(t.tool.description);
  return description.startsWith(`[${label}]`)
    ? description.slice(label.length + 2).trimStart()
    : description;
}

/** A title without a trailing ` (server@env)` label of its own location. */
export function unlabelledTitle(t: SearchableTool, label = locationLabel(t)): string {
  const title = text(t.tool.title);
  return title.endsWith(` (${label})`) ? title.slice(0, -(label.length + 3)) : title;
}
