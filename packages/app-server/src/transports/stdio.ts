/**
 * The app-server over stdio: one JSONL message per line on stdin, one per line on stdout.
 * Logs go to stderr. Ends (and shuts down every thread) when stdin closes.
 */

import type { AppServer } from '../appServer.js';
import { JsonlReader } from '../jsonlReader.js';

export function serveStdio(
  server: AppServer,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Promise<void> {
  return new Promise((resolve) => {
    const peer = server.attach({
      send: (text) => void output.write(`${text}\n`),
      close: () => undefined,
    });
    const reader = new JsonlReader(
      server.maxMessageBytes,
      (line) => peer.receive(line),
      (bytes) => peer.oversize(bytes, server.maxMessageBytes),
    );
    input.on('data', (chunk: Buffer) => reader.push(chunk));
    input.once('end', () => {
      peer.close();
      resolve();
    });
  });
}
