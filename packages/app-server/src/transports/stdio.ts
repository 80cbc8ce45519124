/**
 * The app-server over stdio: one JSONL message per line on stdin, one per line on stdout.
 * Logs go to stderr. Ends (and shuts down every thread) when stdin closes. The connection is
 * privileged (it belongs to the process that started the app-server): see `AppServer.attach`.
 * Messages sent in the same tick are coalesced into one write (fewer syscalls per tool call).
 */

import { LineFramer } from '@mcprt/base';

import type { AppServer } from '../appServer.js';

export function serveStdio(
  server: AppServer,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  return new Promise((resolve) => {
    // Messages sent in one tick (e.g. `item/completed` and the response of a tool call) go out
    // in one `write` of one string: a pipe write wakes the reader, and is the largest single cost
    // of a call on the app-server's side (docs/performance.md), so it is paid once per tick.
    let queued: string[] = [];
    const flush = () => {
      const texts = queued;
      queued = [];
      output.write(texts.length === 1 ? texts[0]! : texts.join(''));
    };
    const peer = server.attach(
      {
        send: (text) => {
          if (queued.length === 0) process.nextTick(flush);
          queued.push(`${text}\n`);
        },
        close: () => undefined,
      },
      { privileged: true },
    );
    // An oversized line is reported once and skipped up to its newline: one huge message can
    // neither exhaust memory nor desynchronise the stream.
    const reader = new LineFramer({
      maxLineBytes: server.maxMessageBytes,
      onLine: (line) => peer.receive(line),
      onOverflow: (bytes) => peer.oversize(bytes, server.maxMessageBytes),
    });
    input.on('data', (chunk: Buffer) => reader.push(chunk));
    input.once('end', () => {
      peer.close();
      resolve();
    });
  });
}
