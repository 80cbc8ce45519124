import { describe, expect, it, vi } from 'vitest';

import { createNotificationStream } from './notificationStream.js';

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('createNotificationStream', () => {
  it('buffers items pushed before iteration and drains them before ending', async () => {
    const { stream, sink } = createNotificationStream<number>(() => {});
    sink.push(1);
    sink.push(2);
    sink.end();
    sink.push(3);
    expect(await collect(stream)).toEqual([1, 2]);
  });

  it('resolves a waiting next() when an item arrives', async () => {
    const { stream, sink } = createNotificationStream<string>(() => {});
    const next = stream.next();
    sink.push('a');
    expect(await next).toEqual({ value: 'a', done: false });
  });

  it('ends waiting consumers when the source ends', async () => {
    const { stream, sink } = createNotificationStream<string>(() => {});
    const next = stream.next();
    sink.end();
    expect(await next).toEqual({ value: undefined, done: true });
  });

  it('runs onDone once, on break, and drops what was buffered', async () => {
    const onDone = vi.fn();
    const { stream, sink } = createNotificationStream<number>(onDone);
    sink.push(1);
    sink.push(2);
    for await (const item of stream) {
      expect(item).toBe(1);
      break;
    }
    sink.end();
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it('close() ends the iteration', async () => {
    const { stream, sink } = createNotificationStream<number>(() => {});
    sink.push(1);
    stream.close();
    expect(await collect(stream)).toEqual([]);
  });
});
