/**
 * Bounded capture of a text stream (a server's or an ssh master's stderr): the last N lines, each
 * cut to a maximum length, so a chatty or hostile process can never grow memory, and status can
 * show why it failed.
 */

export class LineTail {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(
    private readonly maxLines = 50,
    private readonly maxLineLength = 2000,
  ) {}

  push(chunk: Buffer | string): void {
    const text = this.partial + chunk.toString();
    const parts = text.split(/\r?\n/);
    this.partial = (parts.pop() ?? '').slice(0, this.maxLineLength);
    for (const line of parts) this.add(line);
  }

  /** Lines so far, including an unterminated last line. */
  snapshot(): string[] {
    return this.partial === '' ? [...this.lines] : [...this.lines, this.partial];
  }

  private add(line: string): void {
    this.lines.push(line.length > this.maxLineLength ? line.slice(0, this.maxLineLength) : line);
    if (this.lines.length > this.maxLines) this.lines.shift();
  }
}
