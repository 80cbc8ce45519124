import { describe, expect, it } from 'vitest';

import { newCallId } from './callId.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newCallId', () => {
  it('is a version 7 UUID whose first 48 bits are the time in milliseconds', () => {
    const now = Date.UTC(2026, 11, 1, 18, 0, 0, 123);
    const id = newCallId(now);
    expect(id).toMatch(V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(now);
    const before = Date.now();
    const stamp = parseInt(newCallId().replace('-', '').slice(0, 12), 16);
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(Date.now());
  });

  it('sorts by time and stays unique within one millisecond', () => {
    const earlier = newCallId(1_000_000);
    const later = newCallId(1_000_001);
    expect(earlier < later).toBe(true);
    const same = new Set(Array.from({ length: 10_000 }, () => newCallId(1_000_000)));
    expect(same.size).toBe(10_000);
    for (const id of same) expect(id).toMatch(V7);
  });

  it("takes each id's time from the millisecond it is given, also when times alternate", () => {
    const stamp = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    for (const now of [5, 0xffffffffffff, 5, 5, 6, 0]) expect(stamp(newCallId(now))).toBe(now);
  });
});
