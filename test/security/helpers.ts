/**
 * Helpers of the security tests: a real `mcprt app-server --listen ws://…` process (its token
 * generated into the home, or read from a file) and a raw WebSocket client that sees exact
 * response envelopes, so a test can compare two error answers byte for byte.
 */

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import WebSocket from 'ws';

import { NODE, REPO_ROOT, waitFor } from '../helpers/fixtures.js';
import type { Message } from '../helpers/rpcClient.js';
import { CLI } from '../helpers/rpcClient.js';

export interface WsAppServer {
  readonly url: string;
  /** The bearer token (read from the file the server named). */
  readonly token: string;
  readonly child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

/** Start `mcprt --home <home> app-server --listen <listen>`; resolves once it listens. */
export function startWsAppServer(
  home: string,
  options: { listen?: string; args?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<WsAppServer> {
  const child = spawn(
    NODE,
    [
      CLI,
      '--home',
      home,
      'app-server',
      '--listen',
      options.listen ?? 'ws://127.0.0.1:0',
      ...(options.args ?? []),
    ],
    { cwd: REPO_ROOT, env: options.env ?? process.env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on (ws:\/\/\S+) \(bearer token in (.+)\)\n/.exec(stderr);
      if (m === null) return;
      child.stderr!.removeAllListeners('data');
      child.stderr!.on('data', (more: Buffer) => (stderr += more.toString()));
      resolve({
        url: m[1]!,
        token: readFileSync(m[2]!, 'utf8').trim(),
        child,
        stderr: () => stderr,
        stop: async () => {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timer);
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`app-server exited with ${code}: ${stderr}`)));
  });
}

/** The token file the app-server generates in its home. */
export const tokenFileOf = (home: string) => join(home, 'app-server.token');

/** A raw JSON-RPC client over one WebSocket connection. */
export class WsClient {
  readonly messages: Message[] = [];
  private nextId = 1;
  private waiters: { check: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as Message;
      this.messages.push(message);
      this.waiters = this.waiters.filter((w) =>
        w.check(message) ? (w.resolve(message), false) : true,
      );
    });
  }

  /** Connect with the bearer token and complete the handshake. */
  static async connect(url: string, token: string): Promise<WsClient> {
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_req, res) =>
        reject(new Error(`unexpected response ${res.statusCode}`)),
      );
    });
    const client = new WsClient(socket);
    const reply = await client.request('initialize', {
      clientInfo: { name: 'mcprt-security-test', version: '0.0.1' },
    });
    if (reply.error) throw new Error(`initialize failed: ${JSON.stringify(reply.error)}`);
    client.socket.send(JSON.stringify({ method: 'initialized' }));
    return client;
  }

  /** Send a request; resolves with the whole response envelope. */
  request(method: string, params?: unknown): Promise<Message> {
    const id = this.nextId++;
    const reply = this.waitFor((m) => m.id === id && ('result' in m || 'error' in m));
    this.socket.send(JSON.stringify({ id, method, ...(params === undefined ? {} : { params }) }));
    return reply;
  }

  /** A request that must succeed; its result. */
  async call<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    const reply = await this.request(method, params);
    if (reply.error) throw new Error(`${method} failed: ${JSON.stringify(reply.error)}`);
    return reply.result as T;
  }

  waitFor(check: (m: Message) => boolean, timeoutMs = 30_000): Promise<Message> {
    const seen = this.messages.find(check);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('timed out waiting for a message')),
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

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

/**
 * A real D-Bus session bus (dbus-daemon, no service activation) listening on `<dir>/bus`, as a
 * desktop session has at `$XDG_RUNTIME_DIR/bus`. Resolves once the socket exists.
 */
export async function startSessionBus(dir: string): Promise<{ path: string; stop(): void }> {
  const path = join(dir, 'bus');
  writeFileSync(
    join(dir, 'bus.conf'),
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=${path}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*"/><allow own="*"/></policy>
</busconfig>\n`,
  );
  const bus = spawn('dbus-daemon', ['--nofork', `--config-file=${join(dir, 'bus.conf')}`], {
    stdio: 'ignore',
  });
  await waitFor(() => existsSync(path), 10_000, 'the D-Bus session bus');
  return { path, stop: () => bus.kill() };
}
