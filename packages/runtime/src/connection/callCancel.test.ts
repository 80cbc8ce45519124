// CallCancel (ADR 0023): what it cancels, once, with the reason; the AbortSignal it makes for the
// SDK's paths follows it whether made before or after the abort.
import { describe, expect, it } from 'vitest';

import { abortSignalOf, CallCancel } from './callCancel.js';

const target = () => {
  const reasons: unknown[] = [];
  return { reasons, cancel: (reason: unknown) => void reasons.push(reason) };
};

describe('CallCancel', () => {
  it('cancels every registered target once, with the reason, and forgets them', () => {
    const cancel = new CallCancel();
    const [a, b, c] = [target(), target(), target()];
    cancel.listen(a);
    cancel.listen(b);
    cancel.listen(c);
    cancel.unlisten(b);
    const reason = new Error('stop');
    cancel.abort(reason);
    cancel.abort(new Error('again'));
    expect([cancel.aborted, cancel.reason]).toEqual([true, reason]);
    expect(a.reasons).toEqual([reason]);
    expect(b.reasons).toEqual([]);
    expect(c.reasons).toEqual([reason]);
    const late = target();
    cancel.listen(late);
    expect(late.reasons).toEqual([]);
  });

  it('gives an AbortError without a reason, as AbortController does', () => {
    const cancel = new CallCancel();
    cancel.abort();
    expect(cancel.reason).toBeInstanceOf(DOMException);
    expect((cancel.reason as DOMException).name).toBe('AbortError');
  });

  it('makes an AbortSignal that follows it, before or after the abort', () => {
    const before = new CallCancel();
    const signal = abortSignalOf(before);
    expect(signal.aborted).toBe(false);
    before.abort('why');
    expect([signal.aborted, signal.reason]).toEqual([true, 'why']);
    const after = new CallCancel();
    after.abort('late');
    expect([after.signal.aborted, after.signal.reason]).toEqual([true, 'late']);
    const plain = new AbortController().signal;
    expect(abortSignalOf(plain)).toBe(plain);
    expect(abortSignalOf(undefined)).toBeUndefined();
  });
});
