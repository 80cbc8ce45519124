/**
 * The async-iterable side of notifications: a single-consumer queue that buffers what arrives
 * between subscription and iteration, and ends (after draining) when its source ends.
 */

/** An async iterator of notifications; `close()` (or `break` in `for await`) unsubscribes. */
export interface NotificationStream<T> extends AsyncIterableIterator<T> {
  /** Stop receiving; items not yet consumed are dropped and iteration ends. */
  close(): void;
}

/** The producer side, kept by the client. */
export interface NotificationSink<T> {
  push(item: T): void;
  /** End after the buffered items have been consumed. */
  end(): void;
}

/**
 * Create a stream and its sink. `onDone` runs once, when the stream ends for any reason, so the
 * owner can forget the sink.
 */
export function createNotificationStream<T>(onDone: () => void): {
  stream: NotificationStream<T>;
  sink: NotificationSink<T>;
} {
  let buffer: T[] = [];
  const waiting: Array<(result: IteratorResult<T, undefined>) => void> = [];
  let ended = false;

  const end = (): void => {
    if (ended) return;
    ended = true;
    onDone();
    for (const resolve of waiting.splice(0)) resolve({ value: undefined, done: true });
  };

  const stream: NotificationStream<T> = {
    next() {
      if (buffer.length > 0) return Promise.resolve({ value: buffer.shift() as T, done: false });
      if (ended) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => waiting.push(resolve));
    },
    return() {
      end();
      buffer = [];
      return Promise.resolve({ value: undefined, done: true });
    },
    close() {
      end();
      buffer = [];
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };

  const sink: NotificationSink<T> = {
    push(item) {
      if (ended) return;
      const resolve = waiting.shift();
      if (resolve) resolve({ value: item, done: false });
      else buffer.push(item);
    },
    end,
  };
  return { stream, sink };
}
