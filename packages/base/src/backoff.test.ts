import { describe, expect, it } from 'vitest';

import { backoffDelay } from './backoff.js';

describe('backoffDelay', () => {
  it('doubles from the first delay and stops at the cap', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map((n) =>
      backoffDelay(n, { firstMs: 1000, maxMs: 30_000 }),
    );
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    expect(backoffDelay(0, { firstMs: 500, maxMs: 30_000 })).toBe(500);
  });

  it('spreads by ± the jitter fraction', () => {
    const at = (r: number) =>
      backoffDelay(2, { firstMs: 1000, maxMs: 30_000, jitter: 0.2, random: () => r });
    expect(at(0)).toBe(1600);
    expect(at(0.5)).toBe(2000);
    expect(at(1)).toBe(2400);
  });
});
