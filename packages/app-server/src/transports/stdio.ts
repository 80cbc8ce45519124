/**
 * The app-server over stdio: one JSONL message per line on stdin, one per line on stdout.
 * Logs go to stderr. Ends (and shuts down every thread) when stdin closes. The connection is
 * privileged (it belongs to the process that started the app-server): see `AppServer.attach`.
 * Messages written in the same tick are coalesced into one write (fewer syscalls per tool call).
 */

import type { Writable } from 'node:stream';

import { LineFramer } from '@mcprt/base';

import type { AppServer } from '../appServer.js';

export function serveStdio(
  server: AppServer,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  return new Promise((resolve) => {
    // Messages written in one tick (e.g. `item/completed` and the response of a tool call) go out
    // in one write: cork on the first, uncork once the tick's work is done.
    const corkable = output as Partial<Writable>;
    let corked = false;
    const peer = server.attach(
      {
        send: (text) => {
          if (!corked && corkable.cork && corkable.uncork) {
            corked = true;
            corkable.cork.call(output);
            process.nextTick(() => {
              corked = false;
              corkable.uncork!.call(output);
            });
          }
          output.write(`${text}\n`);
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
