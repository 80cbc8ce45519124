/**
 * Call ids (ADR 0028): UUIDs in RFC 9562's version 7 layout — the first 48 bits are the Unix
 * time in milliseconds, the other 74 are random (`crypto.randomUUID`'s) — so ids sort by the time
 * they were made. The history database keeps a `UNIQUE` index on the id: a random (version 4) id
 * lands on a random page of that index, so every ingestion batch rewrote about one index page per
 * call into the WAL; a time-ordered id lands on the last page.
 */

import { randomUUID } from 'node:crypto';

/** The id prefix of the last millisecond asked for (`tttttttt-tttt-7`): most calls share it. */
let lastTime = -1;
let lastPrefix = '';

/** A new call id: `tttttttt-tttt-7rrr-Vrrr-rrrrrrrrrrrr` (t: time in ms, hex; V: 8, 9, a or b). */
export function newCallId(now: number = Date.now()): string {
  if (now !== lastTime) {
    const time = now.toString(16).padStart(12, '0');
    lastPrefix = `${time.slice(0, 8)}-${time.slice(8, 12)}-7`;
    lastTime = now;
  }
  // randomUUID: `xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx`; keep its 74 random bits and variant.
  return lastPrefix + randomUUID().slice(15);
}
