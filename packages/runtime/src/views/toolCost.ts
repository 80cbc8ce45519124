/**
 * What a tool definition costs a model, in tokens (docs/tool-shaping.md): the number `auto` tool
 * search compares with `tool_search_threshold_tokens`, and what `mcprt serve` reports per view.
 * Counted with gpt-tokenizer's o200k_base encoding (the GPT-4o/GPT-5 family's), a stand-in for
 * any model's tokenizer: other models' counts differ by a few per cent, not in kind.
 *
 * What is counted, exactly: the compact JSON of `{"name", "description", "input_schema"}` — the
 * shape hosts send a model for an MCP tool — where `description` is left out unless it is a
 * non-empty string and `input_schema` is the definition's `inputSchema` (`{"type":"object"}` if
 * it has none). Title, output schema, annotations and `_meta` are not counted: hosts do not send
 * them to the model. Special-token text such as `<|endoftext|>` counts as ordinary text.
 *
 * The encoder's ranks take ~300 ms and ~70 MB to load, so they are loaded on the first count,
 * not when this module is imported (the runtime's start-up never pays for it unless a view
 * counts). Counts are cached per definition object, so listing the same definitions again is
 * free; a changed definition is a new object and is counted anew.
 */

import { createRequire } from 'node:module';

import type * as O200kBase from 'gpt-tokenizer/encoding/o200k_base';

type Encoder = typeof O200kBase;

/** Special tokens are text like any other here (never a reason to throw). */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

let encoder: Encoder | undefined;

function load(): Encoder {
  // The CommonJS entry loads synchronously on first use; `import()` would make every count async.
  encoder ??= createRequire(import.meta.url)('gpt-tokenizer/cjs/encoding/o200k_base') as Encoder;
  return encoder;
}

/**
 * Load the encoder now, off any request's path: a session whose view may turn tool search on
 * (`auto`) needs a count for its first listing; loading while its servers start hides the load.
 */
export function prepareTokenCounter(): void {
  const timer = setTimeout(() => load(), 0);
  timer.unref();
}

/** o200k_base tokens of `text`. */
export function countTokens(text: string): number {
  return text === '' ? 0 : load().countTokens(text, AS_TEXT);
}

export interface CountedTool {
  readonly name: string;
  readonly description?: unknown;
  readonly inputSchema?: unknown;
}

const cache = new WeakMap<object, number>();

/** The text counted for a definition: `{"name","description","input_schema"}` as compact JSON. */
export function toolDefinitionText(tool: CountedTool): string {
  const description = typeof tool.description === 'string' ? tool.description : '';
  return JSON.stringify({
    name: tool.name,
    ...(description !== '' ? { description } : {}),
    input_schema: tool.inputSchema ?? { type: 'object' },
  });
}

/** Tokens of one definition as a model receives it (cached per definition object). */
export function toolDefinitionTokens(tool: CountedTool): number {
  let tokens = cache.get(tool);
  if (tokens === undefined) {
    tokens = countTokens(toolDefinitionText(tool));
    cache.set(tool, tokens);
  }
  return tokens;
}
