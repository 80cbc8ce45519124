/**
 * Helpers of the replica tests (docs/deploy.md): free fixed ports (`[serve] replicas` must list
 * them before anything listens), `mcprt serve` replicas on those ports, each with its own home
 * and the same config, HAProxy started in the foreground with the shipped deploy/haproxy.cfg,
 * a sentinel listener that records every request it gets (to prove what was, or was not,
 * forwarded), and SDK clients whose every HTTP exchange is recorded (and may be redirected).
 */

import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { createServer as createNetServer, connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import { makeHome, NODE, REPO_ROOT, tempDir } from '../helpers/fixtures.js';
import { CLI, TOKEN } from './helpers.js';

export const HAPROXY = '/usr/sbin/haproxy';
export const HAPROXY_CFG = join(REPO_ROOT, 'deploy/haproxy.cfg');

/** `n` ports free right now on 127.0.0.1 (all held open together, so they differ). */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<ReturnType<typeof createNetServer>>((resolve) => {
          const s = createNetServer();
          s.listen(0, '127.0.0.1', () => resolve(s));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

export interface Replica {
  readonly home: string;
  readonly url: string;
  readonly child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

/** A shared token file (every replica must accept the same bearer token). */
export function tokenFile(): string {
  const file = join(tempDir('mcprt-replica-token-'), 'token');
  writeFileSync(file, `${TOKEN}\n`, { mode: 0o600 });
  return file;
}

/**
 * `mcprt --home HOME serve --listen http://127.0.0.1:PORT`: in a new home with `config`, or
 * again in the home of a replica that stopped (`{ home }`).
 */
export function startReplica(
  config: string | { readonly home: string },
  port: number,
  token: string,
): Promise<Replica> {
  const home = typeof config === 'string' ? makeHome(config) : config.home;
  const listen = `http://127.0.0.1:${port}`;
  const child = spawn(
    NODE,
    [CLI, '--home', home, 'serve', '--listen', listen, '--http-token-file', token],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`replica exited with ${String(code)}: ${stderr}`)),
    );
    child.stderr!.on('data', (d: Buffer) => {
      stderr += String(d);
      const m = /listening on (\S+)/.exec(stderr);
      if (m) resolve({ home, url: m[1]!, child, stderr: () => stderr, stop });
    });
  });
}

export interface Balancer {
  readonly url: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** HAProxy with the shipped config in front of `replicaPorts`, on a free port. */
export async function startHaproxy(replicaPorts: readonly number[]): Promise<Balancer> {
  const [port] = await freePorts(1);
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    MCPRT_LB_BIND: `127.0.0.1:${port}`,
  };
  replicaPorts.forEach((p, i) => (env[`MCPRT_REPLICA_${i}`] = `127.0.0.1:${p}`));
  const child = spawn(HAPROXY, ['-db', '-f', HAPROXY_CFG], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += String(d)));
  child.stderr!.on('data', (d: Buffer) => (output += String(d)));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port!))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`haproxy did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stderr: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A listener on `port` that records each request and answers `answer` (a JSON-RPC result). */
export function sentinel(
  port: number,
  answer: unknown,
): Promise<{ seen: SeenRequest[]; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += String(d)));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({
        seen,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      }),
    ),
  );
}

/** One HTTP exchange of a recorded client. */
export interface Exchange {
  readonly rpc: string;
  readonly retry: boolean;
  readonly status: number;
  /** `mcprt-replica`: set when the answer came from another replica than the one asked. */
  readonly answeredBy: string | null;
}

export interface RecordedClient {
  readonly client: Client;
  readonly exchanges: Exchange[];
  readonly questions: string[];
  close(): Promise<void>;
}

/**
 * An SDK client of `era` at `url` that answers each question `answer: <name>` and records every
 * POST. `route` may send a POST elsewhere (by its body): the tests pick the replica that way.
 */
export async function recordedClient(
  url: string,
  era: 'legacy' | 'auto',
  name: string,
  route?: (body: string) => string | undefined,
): Promise<RecordedClient> {
  const exchanges: Exchange[] = [];
  const questions: string[] = [];
  const client = new Client(
    { name, version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(era === 'auto' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    questions.push(String((request.params as { message?: unknown }).message));
    return { action: 'accept', content: { answer: `answer: ${name}` } };
  });
  const recording = async (input: string | URL | Request, init?: RequestInit) => {
    const body = typeof init?.body === 'string' ? init.body : '';
    const target = (body !== '' ? route?.(body) : undefined) ?? input;
    const response = await fetch(target, init);
    if (body !== '') {
      const parsed = JSON.parse(body) as { method?: string; params?: { requestState?: unknown } };
      exchanges.push({
        rpc: parsed.method ?? 'response',
        retry: typeof parsed.params?.requestState === 'string',
        status: response.status,
        answeredBy: response.headers.get('mcprt-replica'),
      });
    }
    return response;
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      fetch: recording,
    }),
  );
  return { client, exchanges, questions, close: () => client.close() };
}

export interface HistoryRow {
  readonly tool: string;
  readonly arguments: unknown;
  readonly status: string;
}

/** The calls `mcprt history` shows for `home` (a running replica's included). */
export function historyRows(home: string): HistoryRow[] {
  const out = execFileSync(NODE, [CLI, '--home', home, 'history', '--json', '--limit', '200'], {
    encoding: 'utf8',
  });
  return (JSON.parse(out) as { data: HistoryRow[] }).data;
}

/** The parent of process `pid` (Linux: /proc). */
export function parentPid(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the command name in parentheses: state, then the parent's pid.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}
