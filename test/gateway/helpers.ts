/**
 * Helpers of the `mcprt serve` tests: homes with same-named servers in several environments,
 * the built CLI run as a gateway (stdio through the MCP SDK's own client transport, or HTTP on
 * loopback with a token file), and raw MCP SDK clients of either era that answer elicitations by
 * naming the `server@env` the question came from.
 */

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import {
  arr,
  echoServer,
  NODE,
  q,
  REPO_ROOT,
  shExecEnvironment,
  tempDir,
} from '../helpers/fixtures.js';

export const CLI = join(REPO_ROOT, 'packages/cli/dist/main.js');
export const TOKEN = 'gateway-test-token-0123456789';

export type Era = 'legacy' | 'auto';

/** Two exec environments, `a` and `b`, each with an echo server named `shared`. */
export function twoExecEnvironments(): string {
  const cwd = tempDir('mcprt-gw-cwd-');
  return (
    shExecEnvironment('a', cwd) +
    echoServer('environments.a.mcp_servers.shared', 'shared-a') +
    shExecEnvironment('b', cwd) +
    echoServer('environments.b.mcp_servers.shared', 'shared-b')
  );
}

/** `[table]` for a stdio fixture server with any script and arguments. */
export function stdioServer(table: string, script: string, args: readonly string[] = []): string {
  return `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr([script, ...args])}\n`;
}

export interface GatewayClient {
  readonly client: Client;
  /** Everything the gateway wrote to stderr so far. */
  stderr(): string;
  /** `notifications/message` the client received. */
  readonly logs: { level: string; data: unknown }[];
  close(): Promise<void>;
}

export interface ClientOptions {
  /** Called with the new tool list when the gateway says its tools changed. */
  readonly onToolsChanged?: (names: string[]) => void;
}

function newClient(era: Era, logs: GatewayClient['logs'], options: ClientOptions = {}): Client {
  const onToolsChanged = options.onToolsChanged;
  const client = new Client(
    { name: 'gateway-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {}, url: {} } },
      ...(era === 'auto' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
      ...(onToolsChanged
        ? {
            listChanged: {
              tools: {
                onChanged: (_error: Error | null, tools: { name: string }[] | null) =>
                  onToolsChanged((tools ?? []).map((t) => t.name)),
              },
            },
          }
        : {}),
    },
  );
  // The answer names the scope the question came from, so a crossed answer shows.
  client.setRequestHandler('elicitation/create', async (request) => {
    const message = String((request.params as { message?: unknown }).message ?? '');
    const label = /^\[([^\]]+)\]/.exec(message)?.[1] ?? 'unlabelled';
    return { action: 'accept', content: { answer: `for ${label}` } };
  });
  client.setNotificationHandler('notifications/message', (n) => {
    logs.push({ level: n.params.level, data: n.params.data });
  });
  return client;
}

/** `mcprt --home HOME serve ARGS…` over stdio, connected with the SDK's client of `era`. */
export async function stdioGateway(
  home: string,
  era: Era,
  args: readonly string[] = [],
  options: ClientOptions = {},
): Promise<GatewayClient> {
  const logs: GatewayClient['logs'] = [];
  const client = newClient(era, logs, options);
  const transport = new StdioClientTransport({
    command: NODE,
    args: [CLI, '--home', home, 'serve', ...args],
    env: { ...process.env } as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += String(d)));
  await client.connect(transport);
  return { client, logs, stderr: () => stderr, close: () => client.close() };
}

export interface HttpGateway {
  readonly url: string;
  readonly child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

/** `mcprt serve --listen http://127.0.0.1:0` with a token file; resolves with its URL. */
export async function httpGateway(
  home: string,
  args: readonly string[] = [],
  env?: NodeJS.ProcessEnv,
): Promise<HttpGateway> {
  const tokenFile = join(tempDir('mcprt-gw-token-'), 'token');
  writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
  const child = spawn(
    NODE,
    [
      CLI,
      '--home',
      home,
      'serve',
      '--listen',
      'http://127.0.0.1:0',
      '--http-token-file',
      tokenFile,
      ...args,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], ...(env === undefined ? {} : { env }) },
  );
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`mcprt serve exited with ${String(code)}: ${stderr}`)),
    );
    child.stderr!.on('data', (d: Buffer) => {
      stderr += String(d);
      const m = /listening on (\S+)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** An SDK client of `era` connected to an HTTP gateway with the bearer token. */
export async function httpClient(url: string, era: Era, token = TOKEN): Promise<GatewayClient> {
  const logs: GatewayClient['logs'] = [];
  const client = newClient(era, logs);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return { client, logs, stderr: () => '', close: () => client.close() };
}

/** The text blocks of a tool result. */
export function texts(result: unknown): string[] {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.filter((c) => c.type === 'text').map((c) => c.text ?? '');
}
