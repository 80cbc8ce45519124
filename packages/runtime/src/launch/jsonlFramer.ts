/**
 * Splits a server's stdout into JSON-RPC messages, one per line, without ever holding more than
 * `maxBytes` of one message: a longer line is a hard error (the connection is failed), so a
 * server writing a 100 MB line cannot exhaust memory. Chunks are kept as a list and joined once
 * per line (no quadratic copying for a server that drips one byte at a time). Lines that are
 * not JSON are counted and skipped, as the SDK does.
 */

import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { deserializeMessage } from '@modelcontextprotocol/client';

export class MessageTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`a message from the server exceeds max_message_bytes (${limit} bytes)`);
    this.name = 'MessageTooLargeError';
  }
}

export class JsonlFramer {
  private parts: Buffer[] = [];
  private size = 0;
  /** Lines that were not JSON-RPC (protocol noise), for status. */
  skippedLines = 0;

  constructor(private readonly maxBytes: number) {}

  /** Feed one chunk; returns the complete messages it finished. Throws MessageTooLargeError. */
  push(chunk: Buffer): JSONRPCMessage[] {
    const out: JSONRPCMessage[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl < 0 ? chunk.length : nl;
      if (end > start) {
        this.size += end - start;
        if (this.size > this.maxBytes) {
          this.parts = [];
          this.size = 0;
          throw new MessageTooLargeError(this.maxBytes);
        }
        this.parts.push(chunk.subarray(start, end));
      }
      if (nl < 0) return out;
      const line = (this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts))
        .toString('utf8')
        .replace(/\r$/, '');
      this.parts = [];
      this.size = 0;
      start = nl + 1;
      if (line.trim() === '') continue;
      try {
        out.push(deserializeMessage(line));
      } catch {
        this.skippedLines += 1;
      }
    }
  }
}
