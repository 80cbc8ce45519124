import { describe, expect, it } from 'vitest';

import { Listeners } from './listeners.js';

describe('Listeners', () => {
  it('calls handlers in order and lets one unsubscribe another while emitting', () => {
    const calls: string[] = [];
    const set = new Listeners<[number]>();
    let offB = (): void => undefined;
    set.add((n) => {
      calls.push(`a${n}`);
      offB();
    });
    offB = set.add((n) => calls.push(`b${n}`));
    set.emit(1);
    set.emit(2);
    expect(calls).toEqual(['a1', 'b1', 'a2']);
    expect(set.size).toBe(1);
  });

  it('calls a function registered twice twice, and clear removes everything', () => {
    const set = new Listeners<[]>();
    let count = 0;
    const fn = (): void => {
      count += 1;
    };
    set.add(fn);
    set.add(fn);
    set.emit();
    expect(count).toBe(2);
    set.clear();
    set.emit();
    expect(count).toBe(2);
  });
});
