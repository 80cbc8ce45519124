/**
 * A server's stdout as JSON-RPC messages: `@mcprt/base`'s line framer with the `error` overflow
 * policy — a line longer than `maxBytes` fails the connection at once, so a server writing a
 * 100 MB line cannot exhaust memory — and the SDK's message parser. Lines that are not JSON are
 * counted and skipped, as the SDK does.
 */

import { LineFramer, LineTooLongError } from '@mcprt/base';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { deserializeMessage } from '@modelcontextprotocol/client';

export class MessageTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`a message from the server exceeds max_message_bytes (${limit} bytes)`);
    this.name = 'MessageTooLargeError';
  }
}

export class JsonlFramer {
  private readonly lines: LineFramer;
  /** Where the current `push` collects its messages. */
  private out: JSONRPCMessage[] = [];
  /** Lines that were not JSON-RPC (protocol noise), for status. */
  skippedLines = 0;

  constructor(private readonly maxBytes: number) {
    this.lines = new LineFramer({
      maxLineBytes: maxBytes,
      overflow: 'error',
      onLine: (line) => {
        try {
          this.out.push(deserializeMessage(line));
        } catch {
          this.skippedLines += 1;
        }
      },
    });
  }

  /** Feed one chunk; returns the complete messages it finished. Throws MessageTooLargeError. */
  push(chunk: Buffer): JSONRPCMessage[] {
    const out: JSONRPCMessage[] = [];
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
