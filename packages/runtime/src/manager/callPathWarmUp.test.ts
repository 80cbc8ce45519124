// Each warm-up of the call path's priming (ADR 0027) on its own: it runs without throwing (the
// priming swallows failures, so this is where one would show) and leaves nothing that keeps the
// process alive — no ref'd timer, no pending write.
import { describe, expect, it } from 'vitest';

import { warmUpFastPath } from '../connection/fastToolCalls.js';
import { warmUpCallAuthority } from '../sandbox/sessionSandbox.js';
import { warmUpCallTracker } from './callTracker.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('call path warm-ups', () => {
  it.each([
    ['warmUpFastPath', warmUpFastPath],
    ['warmUpCallAuthority', warmUpCallAuthority],
    ['warmUpCallTracker', warmUpCallTracker],
  ])('%s runs and leaves nothing holding the process', async (_name, warmUp) => {
    await settle();
    const before = process.getActiveResourcesInfo().sort();
    expect(warmUp()).toBeUndefined();
    // A second run (another session's start in the same process would not run it again, but
    // nothing in a warm-up depends on running first).
    expect(warmUp()).toBeUndefined();
    await settle();
    expect(process.getActiveResourcesInfo().sort()).toEqual(before);
  });
});
