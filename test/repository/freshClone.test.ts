// The CI step's comparison (scripts/fresh-clone.mjs): the checkout's test inventory against the
// fresh clone's results. The step itself runs in CI (.ci/run), not inside the suite it runs.
import { describe, expect, it } from 'vitest';

import { compare } from '../../scripts/fresh-clone.mjs';

describe('fresh-clone comparison', () => {
  const listed = ['a.test.ts :: x', 'a.test.ts :: y', 'b.test.ts :: z'];
  const ran = (status: Record<string, string>) =>
    Object.entries(status).map(([id, s]) => ({ id, status: s }));

  it('accepts the same tests, passed or skipped', () => {
    expect(
      compare(
        listed,
        ran({
          'a.test.ts :: x': 'passed',
          'a.test.ts :: y': 'skipped',
          'b.test.ts :: z': 'passed',
        }),
      ),
    ).toEqual([]);
  });

  it('names a test that did not run in the clone (its file failed to load), an extra one and a failure', () => {
    expect(
      compare(
        listed,
        ran({ 'a.test.ts :: x': 'failed', 'a.test.ts :: y': 'passed', 'c.test.ts :: w': 'passed' }),
      ),
    ).toEqual([
      'did not run in the clone: b.test.ts :: z',
      'ran only in the clone: c.test.ts :: w',
      'failed in the clone: a.test.ts :: x',
    ]);
  });

  it('counts tests that share a name', () => {
    const twice = ['a.test.ts :: x', 'a.test.ts :: x'];
    expect(compare(twice, ran({ 'a.test.ts :: x': 'passed' }))).toEqual([
      'did not run in the clone: a.test.ts :: x',
    ]);
  });
});
