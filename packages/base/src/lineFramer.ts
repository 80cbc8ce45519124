/**
 * JSONL framing for byte streams, the one line splitter of mcprt (MCP servers' stdout, the
 * app-server's stdin, the SDK's view of an app-server). Splits on the `\n` byte — safe for UTF-8,
 * since that byte never occurs inside a multi-byte sequence — and decodes each line once it is
 * complete. Chunks are kept as a list and joined once per line, so a peer that drips one byte at a
 * time costs no quadratic copying. One line never holds more than `maxLineBytes`: what happens to
 * a longer one is the overflow policy.
 */

/** Default bound for one line (tool results may carry base64 images). */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * `skip`: drop the oversized line up to its newline, report it once (`onOverflow`) and go on with
 * the next line. `error`: throw `LineTooLongError` from `push` as soon as the bound is passed; the
 * caller fails the stream.
 */
export type OverflowPolicy = 'skip' | 'error';

export interface LineFramerOptions {
  /** Each complete, non-blank line, without its `\n` (a trailing `\r` is removed too). */
  readonly onLine: (line: string) => void;
  /** Longest line kept, in bytes (default 64 MiB). */
  readonly maxLineBytes?: number;
  readonly overflow?: OverflowPolicy;
  /** `skip` policy: called once per dropped line, with the bytes it had reached. */
  readonly onOverflow?: (droppedBytes: number) => void;
}

/** Thrown by `push` under the `error` policy. */
export class LineTooLongError extends Error {
  constructor(readonly limit: number) {
    super(`a line exceeds the maximum of ${limit} bytes`);
    this.name = 'LineTooLongError';
  }
}

const NEWLINE = 0x0a;

export class LineFramer {
  readonly #onLine: (line: string) => void;
  readonly #onOverflow: ((droppedBytes: number) => void) | undefined;
  readonly #maxLineBytes: number;
  readonly #policy: OverflowPolicy;
  #parts: Buffer[] = [];
  #size = 0;
  /** True while skipping the rest of an oversized line. */
  #discarding = false;

  constructor(options: LineFramerOptions) {
    const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    if (!Number.isInteger(max) || max <= 0) {
      throw new TypeError(
        `maxLineBytes must be a positive integer, got ${String(max)} (${typeof max})`,
      );
    }
    this.#onLine = options.onLine;
    this.#onOverflow = options.onOverflow;
    this.#maxLineBytes = max;
    this.#policy = options.overflow ?? 'skip';
  }

  /** Feed one chunk of the stream. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      this.#append(chunk.subarray(start, end));
      if (nl === -1) return;
      this.#finishLine();
      start = nl + 1;
    }
  }

  /** Flush an unterminated last line when the stream ends. */
  end(): void {
    if (this.#size > 0 || this.#discarding) this.#finishLine();
  }

  #append(piece: Buffer): void {
    if (piece.length === 0) return;
    this.#size += piece.length;
    if (this.#discarding) return;
    if (this.#size > this.#maxLineBytes) {
      this.#parts = [];
      if (this.#policy === 'error') {
        this.#size = 0;
        throw new LineTooLongError(this.#maxLineBytes);
      }
      this.#discarding = true;
      return;
    }
    this.#parts.push(piece);
  }

  #finishLine(): void {
    const size = this.#size;
    const parts = this.#parts;
    const dropped = this.#discarding;
    this.#parts = [];
    this.#size = 0;
    this.#discarding = false;
    if (dropped) {
      this.#onOverflow?.(size);
      return;
    }
    if (size === 0) return;
    let line = (parts.length === 1 ? parts[0]! : Buffer.concat(parts, size)).toString('utf8');
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() !== '') this.#onLine(line);
  }
}
