import { describe, expect, it } from 'vitest';

import { ProcessWarmUp } from './processWarmUp.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('ProcessWarmUp', () => {
  it('runs once, in a later turn, however often it is scheduled', async () => {
    let runs = 0;
    const warmUp = new ProcessWarmUp(() => (runs += 1));
    warmUp.schedule();
    warmUp.schedule();
    expect(runs).toBe(0);
    expect(warmUp.done).toBe(false);
    await nextTurn();
    warmUp.schedule();
    await nextTurn();
    expect(runs).toBe(1);
    expect(warmUp.done).toBe(true);
  });

  it('swallows a warm-up that throws and is not done', async () => {
    const warmUp = new ProcessWarmUp(() => {
      throw new Error('boom');
    });
    warmUp.schedule();
    await nextTurn();
    expect(warmUp.done).toBe(false);
  });
});
