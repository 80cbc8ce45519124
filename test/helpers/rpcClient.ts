/**
 * A raw JSONL client for the app-server, for tests that must see exact envelopes: spawns
 * `mcprt app-server` (the built CLI) as a real process, sends lines, matches responses by id and
 * records notifications and server→client requests in arrival order.
 */

import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

import { NODE, REPO_ROOT } from './fixtures.js';

export const CLI = join(REPO_ROOT, 'packages/cli/dist/main.js');

export type Message = Record<string, unknown> & {
  id?: string | number | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

export class RawAppServer {
  readonly messages: Message[] = [];
  readonly stderr: string[] = [];
  private buffer = '';
  private nextId = 1;
  private waiters: { check: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  private exited: Promise<number | null>;

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString();
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        if (line.trim() === '') continue;
        const message = JSON.parse(line) as Message;
        this.messages.push(message);
        this.waiters = this.waiters.filter((w) =>
          w.check(message) ? (w.resolve(message), false) : true,
        );
      }
    });
    child.stderr.on('data', (d: Buffer) => this.stderr.push(d.toString()));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  static start(
    home: string,
    extraArgs: string[] = [],
    env: NodeJS.ProcessEnv = process.env,
  ): RawAppServer {
    const child = spawn(NODE, [CLI, '--home', home, 'app-server', ...extraArgs], {
      cwd: REPO_ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new RawAppServer(child);
  }

  /** Any JSONL app-server process (e.g. Codex's own `codex app-server`). */
  static spawn(command: string, args: readonly string[], env: NodeJS.ProcessEnv): RawAppServer {
    return new RawAppServer(spawn(command, [...args], { env, stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  /** Write one raw line (no framing help: the test decides what is sent). */
  writeLine(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  send(message: Record<string, unknown>): void {
    this.writeLine(JSON.stringify(message));
  }

  /** Send a request and resolve with the whole response envelope. */
  async request(
    method: string,
    params?: unknown,
    extra: Record<string, unknown> = {},
  ): Promise<Message> {
    const id = this.nextId++;
    const reply = this.waitFor((m) => m.id === id && ('result' in m || 'error' in m));
    this.send({ method, id, ...(params === undefined ? {} : { params }), ...extra });
    return reply;
  }

  /** Request that must succeed; returns the result. */
  async call<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    const reply = await this.request(method, params);
    if (reply.error) throw new Error(`${method} failed: ${JSON.stringify(reply.error)}`);
    return reply.result as T;
  }

  async initialize(): Promise<Message> {
    const reply = await this.request('initialize', {
      clientInfo: { name: 'mcprt-test', title: 'mcprt test', version: '0.0.1' },
      capabilities: { experimentalApi: true },
    });
    this.send({ method: 'initialized' });
    return reply;
  }

  /** First message (already received or future) that matches. */
  waitFor(check: (m: Message) => boolean, timeoutMs = 20_000): Promise<Message> {
    const seen = this.messages.find(check);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for a message; stderr: ${this.stderr.join('')}`)),
        timeoutMs,
      );
      this.waiters.push({
        check,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  notifications(method: string): Message[] {
    return this.messages.filter((m) => m.method === method && m.id === undefined);
  }

  async close(): Promise<number | null> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}
