import { describe, expect, it } from 'vitest';

import { Coalescer } from './coalescer.js';

function gate() {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('Coalescer', () => {
  it('runs once now and once more after a flood of triggers', async () => {
    const gates = [gate(), gate()];
    let runs = 0;
    const c = new Coalescer(async () => {
      const g = gates[runs++];
      await g?.opened;
    });
    const first = c.run();
    const queued = [c.run(), c.run(), c.run()];
    expect(runs).toBe(1);
    expect(new Set(queued).size).toBe(1);
    gates[0]!.open();
    await first;
    await Promise.resolve();
    gates[1]!.open();
    await Promise.all(queued);
    expect(runs).toBe(2);
  });

  it('runs the queued task after a failed run, and reports each run its own outcome', async () => {
    let runs = 0;
    const c = new Coalescer(async () => {
      runs += 1;
      if (runs === 1) throw new Error('first failed');
    });
    const first = c.run();
    const second = c.run();
    await expect(first).rejects.toThrow('first failed');
    await expect(second).resolves.toBeUndefined();
    expect(runs).toBe(2);
  });

  it('turns a task that throws synchronously into a rejected run', async () => {
    const c = new Coalescer(() => {
      throw new Error('sync');
    });
    await expect(c.run()).rejects.toThrow('sync');
    await expect(c.run()).rejects.toThrow('sync');
  });
});
