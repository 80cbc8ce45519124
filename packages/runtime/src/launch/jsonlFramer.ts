/**
 * A server's stdout as JSON-RPC messages: `@mcprt/base`'s line framer with the `error` overflow
 * policy — a line longer than `maxBytes` fails the connection at once, so a server writing a
 * 100 MB line cannot exhaust memory — each line `JSON.parse`d once, offered first to a claimer
 * (the tool-call fast path takes the responses and progress it owns, structurally checked by it,
 * ADR 0021), and everything else checked by the SDK's message schema exactly as its own
 * `deserializeMessage` does. Lines that are not JSON-RPC are counted and skipped, as the SDK does.
 */

import { LineFramer, LineTooLongError } from '@mcprt/base';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { parseJSONRPCMessage } from '@modelcontextprotocol/client';

export class MessageTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`a message from the server exceeds max_message_bytes (${limit} bytes)`);
    this.name = 'MessageTooLargeError';
  }
}

/**
 * Looks at a parsed line before the SDK does: returns how to deliver it when it is the
 * claimer's (nothing else sees it), undefined otherwise. Delivery runs in stream order with the
 * SDK's messages, after the chunk is framed.
 */
export type MessageClaimer = (message: unknown) => (() => void) | undefined;

/** What a chunk yields, in stream order: messages for the SDK, or a claimed message's delivery. */
export type FramedItem = JSONRPCMessage | (() => void);

export class JsonlFramer {
  private readonly lines: LineFramer;
  /** Where the current `push` collects its messages. */
  private out: FramedItem[] = [];
  /** Lines that were not JSON-RPC (protocol noise), for status. */
  skippedLines = 0;
  /** The fast path's claimer (none: every message goes to the SDK). */
  claim: MessageClaimer | undefined;

  constructor(private readonly maxBytes: number) {
    this.lines = new LineFramer({
      maxLineBytes: maxBytes,
      overflow: 'error',
      onLine: (line) => this.onLine(line),
    });
  }

  private onLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.skippedLines += 1;
      return;
    }
    const claimed = this.claim?.(value);
    if (claimed !== undefined) {
      this.out.push(claimed);
      return;
    }
    try {
      this.out.push(parseJSONRPCMessage(value));
    } catch {
      this.skippedLines += 1;
    }
  }

  /** Feed one chunk; returns the complete messages it finished. Throws MessageTooLargeError. */
  push(chunk: Buffer): FramedItem[] {
    const out: FramedItem[] = [];
    this.out = out;
    try {
      this.lines.push(chunk);
    } catch (error) {
      if (error instanceof LineTooLongError) throw new MessageTooLargeError(this.maxBytes);
      throw error;
    }
    return out;
  }
}
