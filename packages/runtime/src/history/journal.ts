/**
 * The append-only journal a history store writes on the call path (ADR 0017): one `write(2)` of
 * whole JSON lines per flush, no `fsync`. Once `append` returns, the lines are in the kernel's
 * page cache: they survive the process being killed (`kill -9`), not a power loss or an OS crash
 * — the level SQLite's WAL mode with `synchronous = NORMAL` gave the history before (a commit
 * survives a process crash; the last commits may roll back on power loss). Files are mode 0600,
 * in a 0700 directory, created by the first append or ahead of it by `prepare` (the store does
 * that soon after it opens, so a session's first call does not pay it, ADR 0024); `rotate`
 * closes the current file (a file is never written again once rotated) and the next append
 * opens the next one.
 */

import { closeSync, fchmodSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { journalFileName, newFamily } from './journalFiles.js';

export class HistoryJournal {
  readonly family = newFamily();
  private fd: number | null = null;
  private seq = 0;
  private bytes = 0;
  /** A write failed part-way: the next append first ends the fragment with a newline. */
  private torn = false;

  constructor(readonly dir: string) {}

  /** The file being written, if one is open. */
  get current(): string | null {
    return this.fd === null ? null : journalFileName(this.family, this.seq);
  }

  /** Bytes written to the current file. */
  get size(): number {
    return this.bytes;
  }

  /**
   * Write `text` (whole lines) with one `write` (more only after a short write). Throws (a full
   * disk); a fragment left by a failed write becomes a line of its own, skipped when ingested,
   * instead of spoiling the next record.
   */
  append(text: string): void {
    const fd = this.fd ?? this.open();
    const whole = this.torn ? `\n${text}` : text;
    const length = Buffer.byteLength(whole, 'utf8');
    let done = 0;
    try {
      // The string as is (no Buffer made for the usual whole write); a short write (a full
      // disk) goes on from the byte it stopped at.
      done = writeSync(fd, whole);
      if (done < length) {
        const buffer = Buffer.from(whole, 'utf8');
        while (done < length) done += writeSync(fd, buffer, done, length - done);
      }
    } finally {
      this.bytes += done;
      this.torn = done > 0 && done < length ? true : this.torn && done === 0;
    }
  }

  /** Create the next file now if none is open, so that the next append does not (ADR 0024). */
  prepare(): void {
    if (this.fd !== null) return;
    // An empty write (appends nothing) runs the write path once, so it is compiled too.
    writeSync(this.open(), '');
  }

  /** Close the current file; the next append starts `seq + 1`. Returns the closed file's name. */
  rotate(): string | null {
    const closed = this.current;
    this.close();
    return closed;
  }

  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    this.bytes = 0;
    this.torn = false;
    closeSync(fd);
  }

  private open(): number {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.seq += 1;
    const fd = openSync(join(this.dir, journalFileName(this.family, this.seq)), 'a', 0o600);
    fchmodSync(fd, 0o600);
    this.fd = fd;
    this.bytes = 0;
    return fd;
  }
}
