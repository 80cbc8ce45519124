/**
 * JSONL framing for byte streams: splits chunks on `\n` into complete UTF-8 lines and bounds how
 * much an unterminated line may buffer, so a peer that never sends a newline cannot grow memory
 * without limit.
 */

/** Default bound for one incoming line (tool results may carry base64 images). */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface LineDecoderOptions {
  /** Called with each complete line, without its `\n` (a trailing `\r` is removed too). */
  readonly onLine: (line: string) => void;
  /** Called once per line dropped for exceeding `maxLineBytes`, with the bytes it had reached. */
  readonly onOverflow?: (droppedBytes: number) => void;
  /** Longest line kept, in bytes; longer lines are dropped up to their newline. */
  readonly maxLineBytes?: number;
}

const NEWLINE = 0x0a;

/**
 * Incremental line splitter. Splitting on the `\n` byte is safe for UTF-8: that byte never occurs
 * inside a multi-byte sequence, so each line is decoded only once it is complete.
 */
export class LineDecoder {
  readonly #onLine: (line: string) => void;
  readonly #onOverflow: ((droppedBytes: number) => void) | undefined;
  readonly #maxLineBytes: number;
  #parts: Buffer[] = [];
  #size = 0;
  /** True while skipping the rest of an oversized line. */
  #discarding = false;

  constructor(options: LineDecoderOptions) {
    const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    if (!Number.isInteger(max) || max <= 0) {
      throw new TypeError(
        `maxLineBytes must be a positive integer, got ${String(max)} (${typeof max})`,
      );
    }
    this.#onLine = options.onLine;
    this.#onOverflow = options.onOverflow;
    this.#maxLineBytes = max;
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
      this.#discarding = true;
      this.#parts = [];
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
    let line = Buffer.concat(parts, size).toString('utf8');
    if (line.endsWith('\r')) line = line.slice(0, -1);
    this.#onLine(line);
  }
}
