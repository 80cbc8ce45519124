/**
 * Names and owners of history journal files (ADR 0017). Every history store writes its own
 * family of append-only files, `<dir>/<host>-<pid>-<token>-<seq>.jsonl`: `host` is a tag of this
 * machine's host name, `pid` the writing process, `token` tells two stores of one process apart,
 * and `seq` grows when the owner rotates (an older file of a family is never written again). A
 * family's owner is known dead when it ran on this host and no process has its pid any more;
 * only then may another process delete the family's files once they are ingested. A pid reused
 * by a new process only keeps the files longer (they are ingested all the same); files of another
 * host (a home shared over a network file system) are ingested, never deleted, by other hosts.
 */

import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

export const JOURNAL_EXTENSION = '.jsonl';

/** The journal directory beside a history database: `history.sqlite` → `history.journal`. */
export function journalDirFor(historyFile: string): string {
  return `${historyFile.replace(/\.sqlite$/, '')}.journal`;
}

export const HOST_TAG = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);

export interface JournalName {
  readonly file: string;
  /** `<host>-<pid>-<token>`: one store's files. */
  readonly family: string;
  readonly host: string;
  readonly pid: number;
  readonly seq: number;
}

/** A new family for a store of this process. */
export function newFamily(): string {
  return `${HOST_TAG}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

export function journalFileName(family: string, seq: number): string {
  return `${family}-${String(seq).padStart(6, '0')}${JOURNAL_EXTENSION}`;
}

const NAME = /^([0-9a-f]{8})-(\d+)-([0-9a-f]{8})-(\d{6,})\.jsonl$/;

/** The parts of a journal file name; null for any other file. */
export function parseJournalName(file: string): JournalName | null {
  const m = NAME.exec(file);
  if (!m) return null;
  return {
    file,
    family: `${m[1]}-${m[2]}-${m[3]}`,
    host: m[1]!,
    pid: Number(m[2]),
    seq: Number(m[4]),
  };
}

/** Whether the family's owner is certainly gone (this host, no process with its pid). */
export function ownerIsDead(name: JournalName): boolean {
  if (name.host !== HOST_TAG || name.pid === process.pid) return false;
  try {
    process.kill(name.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Journal files of a directory listing, grouped by family, each family in `seq` order. */
export function familiesOf(files: readonly string[]): Map<string, JournalName[]> {
  const out = new Map<string, JournalName[]>();
  for (const file of files) {
    const name = parseJournalName(file);
    if (!name) continue;
    let list = out.get(name.family);
    if (!list) out.set(name.family, (list = []));
    list.push(name);
  }
  for (const list of out.values()) list.sort((a, b) => a.seq - b.seq);
  return out;
}
