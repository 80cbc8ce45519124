/**
 * Splits a byte stream into JSONL lines with a hard bound: a line longer than `maxBytes` is
 * reported once (`onOversize`) and skipped up to its newline, so one huge message can neither
 * exhaust memory nor desynchronise the stream.
 */

export class JsonlReader {
  private chunks: Buffer[] = [];
  private size = 0;
  private skipping = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversize: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) {
        this.append(chunk.subarray(start));
        return;
      }
      this.append(chunk.subarray(start, nl));
      this.finishLine();
      start = nl + 1;
    }
  }

  private append(part: Buffer): void {
    if (part.length === 0) return;
    if (this.skipping) {
      this.size += part.length;
      return;
    }
    this.size += part.length;
    if (this.size > this.maxBytes) {
      this.skipping = true;
      this.chunks = [];
      return;
    }
    this.chunks.push(part);
  }

  private finishLine(): void {
    if (this.skipping) {
      this.onOversize(this.size);
    } else if (this.size > 0) {
      const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
      if (line.trim() !== '') this.onLine(line);
    }
    this.chunks = [];
    this.size = 0;
    this.skipping = false;
  }
}
