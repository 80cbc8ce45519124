/**
 * A raw 2026-07-28 JSON-RPC client for the gateway's HTTP listener, declaring the tasks
 * extension in its request capabilities (the SDK 2.4 client cannot take a `resultType: "task"`
 * answer), and a poll loop for a task until it ends.
 */

import { expect } from 'vitest';

import { NODE } from '../helpers/fixtures.js';
import { CLI, RawAppServer } from '../helpers/rpcClient.js';

const VERSION = 'io.modelcontextprotocol/protocolVersion';
const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const TASKS = 'io.modelcontextprotocol/tasks';

export interface RpcAnswer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

let nextId = 1;

/** One request as a 2026 client that takes tasks sends it; the JSON or SSE answer parsed. */
export async function modernRpc(
  url: string,
  token: string,
  method: string,
  params: Record<string, unknown>,
  tasks = true,
  /** Further client capabilities declared (e.g. `elicitation`). */
  capabilities: Record<string, unknown> = {},
): Promise<RpcAnswer> {
  const name = params['taskId'] ?? params['name'] ?? params['uri'];
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          [VERSION]: '2026-07-28',
          [CLIENT_INFO]: { name: 'task-test', version: '1.0.0' },
          [CAPABILITIES]: { ...capabilities, ...(tasks ? { extensions: { [TASKS]: {} } } : {}) },
        },
      },
    }),
  });
  expect(response.status).toBe(200);
  const body = await response.text();
  if (response.headers.get('content-type')?.includes('text/event-stream')) {
    const data = body
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as RpcAnswer & { id?: unknown });
    return data.find((m) => m.result !== undefined || m.error !== undefined) ?? {};
  }
  return JSON.parse(body) as RpcAnswer;
}

/** Poll `get` (a task's current state) until it is no longer working; returns the last state. */
export async function pollUntilEnded(
  get: () => Promise<Record<string, unknown>>,
  timeoutMs = 20_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await get();
    if (state['status'] !== 'working' && state['status'] !== 'input_required') return state;
    if (Date.now() > deadline) throw new Error(`task still ${String(state['status'])}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Poll `get` until the task is no longer `working` (bounded); returns the last state. */
export async function pastWorking(
  get: () => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  for (let tries = 0; ; tries++) {
    const state = await get();
    if (state['status'] !== 'working') return state;
    expect(tries, 'still working').toBeLessThan(200);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A raw 2025-11-25 client of the gateway: requests answered with their result, or thrown. */
export interface LegacyRaw {
  request(method: string, params: Record<string, unknown>): Promise<RpcAnswer>;
  close(): Promise<void>;
}

const INITIALIZE = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'task-test', version: '1.0.0' },
};

/** `mcprt serve` over stdio, spoken to in raw JSON lines. */
export async function legacyStdio(home: string): Promise<LegacyRaw> {
  const server = RawAppServer.spawn(NODE, [CLI, '--home', home, 'serve'], process.env);
  const request = async (method: string, params: Record<string, unknown>) =>
    (await server.request(method, params, { jsonrpc: '2.0' })) as RpcAnswer;
  expect((await request('initialize', INITIALIZE)).result).toBeDefined();
  server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { request, close: async () => void (await server.close()) };
}

/** The HTTP listener as a 2025 client: a session from `initialize`, then plain POSTs. */
export async function legacyHttp(url: string, token: string): Promise<LegacyRaw> {
  let session: string | null = null;
  const post = async (body: Record<string, unknown>) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(session === null
          ? {}
          : { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }),
      },
      body: JSON.stringify(body),
    });
    session ??= response.headers.get('mcp-session-id');
    const text = await response.text();
    if (text === '') return {};
    if (!response.headers.get('content-type')?.includes('text/event-stream')) {
      return JSON.parse(text) as RpcAnswer;
    }
    const messages = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as RpcAnswer);
    return messages.find((m) => m.result !== undefined || m.error !== undefined) ?? {};
  };
  const request = (method: string, params: Record<string, unknown>) =>
    post({ jsonrpc: '2.0', id: nextId++, method, params });
  expect((await request('initialize', INITIALIZE)).result).toBeDefined();
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { request, close: async () => undefined };
}
