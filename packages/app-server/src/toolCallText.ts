/**
 * The JSON text of a tool call's messages, written directly (ADR 0022): the params of
 * `item/started` and `item/completed` and the `mcpServer/tool/call` result. Each text is exactly
 * `JSON.stringify` of the object form (`toolCallItem` in threadEvents.ts, same keys in the same
 * order), but a call's arguments are encoded once for both items, its result once for
 * `item/completed` and the response, and the strings that recur in every call (thread id, server
 * and tool names, environment ids) are quoted once per thread.
 */

import type { ToolCallCompleted, ToolCallStarted } from '@mcprt/runtime';

import { EncodedJson } from './encodedJson.js';

/** Recurring strings quoted per thread, at most this many (then the cache starts over). */
const QUOTED_MAX = 256;

const json = JSON.stringify;

/** A number as `JSON.stringify` writes it. */
const num = (n: number): string => (Number.isFinite(n) ? String(n) : 'null');

/** `,"key":<json>` for a member `JSON.stringify` keeps (it drops undefined, functions, symbols). */
function member(key: string, value: unknown): string {
  if (value === undefined) return '';
  const text = json(value) as string | undefined;
  return text === undefined ? '' : `,"${key}":${text}`;
}

/** One thread's encoder: its calls' argument texts (start to completion) and result texts. */
export class ToolCallEncoder {
  private quoted = new Map<string, string>();
  /** Arguments text by call id, from `item/started` until `item/completed`. */
  private readonly argumentTexts = new Map<string, string>();
  /** Result text by call id, from `item/completed` until the call's response takes it. */
  private readonly resultTexts = new Map<string, { result: object; text: string }>();

  /** `appUi`: the called tool's MCP App as item members, '' when none (appUi.ts). */
  constructor(private readonly appUi: (e: ToolCallStarted) => string = () => '') {}

  /** `item/started` params. */
  started(e: ToolCallStarted): string {
    const args = this.argumentsText(e);
    this.argumentTexts.set(e.id, args);
    const id = json(e.id);
    return `{"threadId":${this.quote(e.threadId)},"turnId":${id},"item":${this.item(e, id, args, '"inProgress"', 'null', 'null', 'null')},"startedAtMs":${num(e.startedAt)}}`;
  }

  /** `item/completed` params; the result's text is kept for the call's response. */
  completed(e: ToolCallCompleted): string {
    let args = this.argumentTexts.get(e.id);
    if (args === undefined) args = this.argumentsText(e);
    else this.argumentTexts.delete(e.id);
    const id = json(e.id);
    const status = e.status === 'completed' ? '"completed"' : '"failed"';
    const result = e.result ? this.itemResult(e.id, e.result) : 'null';
    const error = e.error !== null ? `{"message":${json(e.error)}}` : 'null';
    const item = this.item(e, id, args, status, result, error, num(e.durationMs));
    return `{"threadId":${this.quote(e.threadId)},"turnId":${id},"item":${item},"completedAtMs":${num(e.startedAt + e.durationMs)}}`;
  }

  /**
   * The response of call `id` as JSON text, when `item/completed` encoded this very result;
   * otherwise the result itself. Forgets the call either way.
   */
  response(id: string, result: object): EncodedJson | object {
    const kept = this.resultTexts.get(id);
    if (kept === undefined) return result;
    this.resultTexts.delete(id);
    return kept.result === result ? new EncodedJson(kept.text) : result;
  }

  /** Forget what is kept for call `id` (a call that ended without a response). */
  forget(id: string): void {
    this.argumentTexts.delete(id);
    this.resultTexts.delete(id);
  }

  private item(
    e: ToolCallStarted,
    id: string,
    args: string,
    status: string,
    result: string,
    error: string,
    durationMs: string,
  ): string {
    return `{"type":"mcpToolCall","id":${id},"server":${this.quote(e.server)},"tool":${this.quote(e.tool)},"status":${status},"arguments":${args},"environmentId":${e.environmentId === null ? 'null' : this.quote(e.environmentId)},"result":${result},"error":${error},"durationMs":${durationMs}${this.appUi(e)}}`;
  }

  private argumentsText(e: ToolCallStarted): string {
    return (json(e.arguments) as string | undefined) ?? 'null';
  }

  /**
   * The item's `result`: `content` (an empty list unless it is a list), `structuredContent` and
   * `_meta` of the MCP result. A result holding exactly `content` (a list) is its own item
   * result: encoded once, it is both the item's and the response's.
   */
  private itemResult(id: string, result: Record<string, unknown>): string {
    const content = result['content'];
    const keys = Object.keys(result);
    if (keys.length === 1 && keys[0] === 'content' && Array.isArray(content)) {
      const text = json(result);
      this.resultTexts.set(id, { result, text });
      return text;
    }
    return `{"content":${Array.isArray(content) ? json(content) : '[]'}${member('structuredContent', result['structuredContent'])}${member('_meta', result['_meta'])}}`;
  }

  private quote(value: string): string {
    let text = this.quoted.get(value);
    if (text === undefined) {
      if (this.quoted.size >= QUOTED_MAX) this.quoted = new Map();
      text = json(value);
      this.quoted.set(value, text);
    }
    return text;
  }
}

/**
 * Part of the app-server's priming (callWarmUp.ts, ADR 0027): one synthetic call's
 * `item/started`, `item/completed` and response texts built on a throw-away encoder, so that the
 * first call's run compiled code. Nothing is sent.
 */
export function warmUpToolCallText(): void {
  const encoder = new ToolCallEncoder();
  const scope = { environmentId: null, name: 'warm-up' };
  const started: ToolCallStarted = {
    id: 'warm-up',
    threadId: 'warm-up',
    scope,
    server: scope.name,
    environmentId: null,
    tool: 'warm-up',
    arguments: { message: 'warm-up' },
    startedAt: 0,
  };
  const result = { content: [{ type: 'text', text: 'warm-up' }] };
  encoder.started(started);
  encoder.completed({ ...started, status: 'completed', result, error: null, durationMs: 0 });
  encoder.response(started.id, result);
  encoder.forget(started.id);
}
