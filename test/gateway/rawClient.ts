/**
 * A line-level client of `mcprt serve` over stdio, for the tests that need to see the wire
 * itself (the `tools/call` fast path's edges): it writes raw lines — malformed ones included —
 * and keeps every line the gateway writes, parsed, in order, with its raw text.
 */

import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';

import { NODE, waitFor } from '../helpers/fixtures.js';
import { CLI } from './helpers.js';

export type Json = Record<string, unknown>;

export interface Received {
  readonly raw: string;
  readonly message: Json;
}

export class RawGateway {
  readonly received: Received[] = [];
  /** Errors writing to the gateway's stdin (EPIPE once it has gone). */
  readonly writeErrors: Error[] = [];
  private stderrText = '';
  private pending = '';

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      this.pending += chunk;
      let index: number;
      while ((index = this.pending.indexOf('\n')) !== -1) {
        const raw = this.pending.slice(0, index);
        this.pending = this.pending.slice(index + 1);
        this.received.push({ raw, message: JSON.parse(raw) as Json });
      }
    });
    child.stderr.on('data', (d: Buffer) => (this.stderrText += String(d)));
    // A gateway that ends the connection (the oversized-line test) leaves writes unread: EPIPE.
    child.stdin.on('error', (error) => this.writeErrors.push(error));
  }

  /** `mcprt --home HOME serve` with nothing sent yet. */
  static start(home: string): RawGateway {
    return new RawGateway(spawn(NODE, [CLI, '--home', home, 'serve'], { stdio: 'pipe' }));
  }

  /** Start and complete a 2025 handshake (elicitation: form). */
  static async initialized(home: string): Promise<RawGateway> {
    const gateway = RawGateway.start(home);
    const answer = await gateway.request('init', 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: { form: {} } },
      clientInfo: { name: 'raw-test', version: '1.0.0' },
    });
    if (!('result' in answer)) throw new Error(`initialize failed: ${JSON.stringify(answer)}`);
    gateway.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return gateway;
  }

  stderr(): string {
    return this.stderrText;
  }

  /** Write a message (an object is one JSON line; a string is written as it is). */
  send(message: Json | string): void {
    this.child.stdin.write(typeof message === 'string' ? message : `${JSON.stringify(message)}\n`);
  }

  /** Send a request and wait for its answer. */
  async request(
    id: string | number,
    method: string,
    params?: Json,
    timeoutMs = 20_000,
  ): Promise<Json> {
    this.send({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });
    return (await this.answer(id, timeoutMs)).message;
  }

  /** The answer to request `id` (waits for it). */
  answer(id: string | number, timeoutMs = 20_000): Promise<Received> {
    return this.next((m) => m['id'] === id && !('method' in m), timeoutMs, `the answer to ${id}`);
  }

  /** The first received line matching `match` (waits for it). */
  next(
    match: (message: Json) => boolean,
    timeoutMs = 20_000,
    what = 'a message',
  ): Promise<Received> {
    return waitFor(() => this.received.find((r) => match(r.message)), timeoutMs, what);
  }

  /** Wait until every server is listed (calls made before that may wait for startup). */
  async toolsListed(names: readonly string[]): Promise<void> {
    let n = 0;
    for (;;) {
      const answer = await this.request(`list-${++n}`, 'tools/list');
      const tools = ((answer['result'] as Json | undefined)?.['tools'] ?? []) as { name: string }[];
      if (names.every((name) => tools.some((t) => t.name === name))) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Resolves with the exit code (or signal) when the gateway process ends. */
  exited(): Promise<number | string> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve(this.child.exitCode);
      this.child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.stdin.end();
    });
  }
}
