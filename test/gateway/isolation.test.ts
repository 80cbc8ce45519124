/**
 * `mcprt serve` over HTTP with many clients at once (issue "a gateway for a team", point 1):
 * two and ten raw SDK clients of both eras call the same tools of the same underlying servers
 * concurrently, and every question, answer and progress step stays with the client whose call
 * caused it. The underlying servers are real processes of each kind that can tell the gateway
 * which call asked (a 2026-07-28 server over stdio, a 2025 server over HTTP with sessions, a
 * 2026-07-28 server over HTTP) and the kind that cannot (a 2025 stdio server): its question is
 * declined when two clients wait on it, never shown to the wrong one. One client disconnecting
 * cancels its own call only.
 */

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { arr, FIXTURES, makeHome, NODE, q } from '../helpers/fixtures.js';
import { recoveredHistory } from '../helpers/history.js';
import type { HttpGateway } from './helpers.js';
import { httpGateway, texts, TOKEN } from './helpers.js';

const ASKER = join(FIXTURES, 'asker-server.mjs');

/** A client that answers every question with its own name and remembers what it was asked. */
interface Asker {
  readonly id: string;
  readonly client: Client;
  readonly questions: string[];
  readonly progress: string[];
}

async function asker(url: string, id: string, era: 'legacy' | 'auto'): Promise<Asker> {
  const questions: string[] = [];
  const client = new Client(
    { name: `client-${id}`, version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      ...(era === 'auto' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    questions.push(String((request.params as { message?: unknown }).message));
    return { action: 'accept', content: { answer: `from ${id}` } };
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  return { id, client, questions, progress: [] };
}

function startHttpAsker(
  era: 'legacy' | 'modern',
  name: string,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(NODE, [ASKER, '--transport', 'http', '--era', era, '--name', name], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`asker exited with ${String(code)}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const port = /PORT (\d+)/.exec(String(chunk))?.[1];
      if (port !== undefined) resolve({ child, url: `http://127.0.0.1:${port}/mcp` });
    });
  });
}

const stdioAsker = (name: string, era: 'legacy' | 'modern') =>
  `[mcp_servers.${name}]\ncommand = ${q(NODE)}\nargs = ${arr([ASKER, '--era', era, '--name', name])}\n\n`;

/** Servers that tell the gateway which call asked (their questions can be routed exactly). */
const LINKED = ['modern_stdio', 'legacy_http', 'modern_http'] as const;

let home: string;
let gateway: HttpGateway;
const children: ChildProcess[] = [];

beforeAll(async () => {
  const legacyHttp = await startHttpAsker('legacy', 'legacy_http');
  const modernHttp = await startHttpAsker('modern', 'modern_http');
  children.push(legacyHttp.child, modernHttp.child);
  home = makeHome(
    stdioAsker('legacy_stdio', 'legacy') +
      stdioAsker('modern_stdio', 'modern') +
      `[mcp_servers.legacy_http]\nurl = ${q(legacyHttp.url)}\n\n` +
      `[mcp_servers.modern_http]\nurl = ${q(modernHttp.url)}\n\n`,
  );
  gateway = await httpGateway(home);
});

afterAll(async () => {
  await gateway?.stop();
  for (const child of children) child.kill();
});

async function clients(count: number): Promise<Asker[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      asker(gateway.url, `c${i}`, i % 2 === 0 ? 'legacy' : 'auto'),
    ),
  );
}

describe.each([2, 10])('%i clients at once', (count) => {
  let askers: Asker[];
  beforeAll(async () => {
    askers = await clients(count);
  });
  afterAll(async () => {
    await Promise.all(askers.map((a) => a.client.close()));
  });

  it.each(LINKED)(
    'each answer to `%s` reaches its own asker, and no other client is asked',
    async (server) => {
      for (const a of askers) a.questions.length = 0;
      const results = await Promise.all(
        askers.map((a) =>
          // Every call is in the server before any of them asks.
          a.client.callTool({ name: `${server}__ask`, arguments: { who: a.id, together: count } }),
        ),
      );
      results.forEach((result, i) => {
        const id = askers[i]!.id;
        expect(texts(result)).toEqual([`${server} asked ${id}, got {"answer":"from ${id}"}`]);
      });
      for (const a of askers) {
        expect(a.questions).toEqual([`[${server}] ${server} asks ${a.id}`]);
      }
    },
  );

  it.each(LINKED)('progress of `%s` goes to the client whose call it is', async (server) => {
    await Promise.all(
      askers.map(async (a) => {
        const steps: string[] = [];
        const result = await a.client.callTool(
          { name: `${server}__progress`, arguments: { who: a.id, steps: 3 } },
          { onprogress: (p) => void steps.push(String(p.message)) },
        );
        expect(texts(result)).toEqual([`${a.id} done`]);
        // Every step this client saw is its own (a 2026 client also sees the SDK's own rounds).
        const foreign = steps.filter((s) => /^c\d+ step/.test(s) && !s.startsWith(`${a.id} step`));
        expect(foreign).toEqual([]);
        expect(steps.filter((s) => s.startsWith(`${a.id} step`))).toEqual([
          `${a.id} step 1`,
          `${a.id} step 2`,
          `${a.id} step 3`,
        ]);
      }),
    );
  });
});

describe('a 2025 stdio server, whose questions carry no link to their call', () => {
  let askers: Asker[];
  beforeAll(async () => {
    askers = await clients(2);
  });
  afterAll(async () => {
    await Promise.all(askers.map((a) => a.client.close()));
  });

  it('asks the one client waiting on it', async () => {
    for (const a of askers) {
      const result = await a.client.callTool({
        name: 'legacy_stdio__ask',
        arguments: { who: a.id },
      });
      expect(texts(result)).toEqual([`legacy_stdio asked ${a.id}, got {"answer":"from ${a.id}"}`]);
      expect(a.questions).toEqual([`[legacy_stdio] legacy_stdio asks ${a.id}`]);
      a.questions.length = 0;
    }
  });

  it('declines a question while two clients wait on it, and shows it to neither', async () => {
    const results = await Promise.all(
      askers.map((a) =>
        a.client.callTool({
          name: 'legacy_stdio__ask',
          // Both calls are in the server before either asks.
          arguments: { who: a.id, together: 2 },
        }),
      ),
    );
    results.forEach((result, i) => {
      expect(texts(result)).toEqual([`legacy_stdio asked ${askers[i]!.id}, got null`]);
    });
    for (const a of askers) expect(a.questions).toEqual([]);
    expect(gateway.stderr()).toMatch(
      /MCP server `legacy_stdio` asked for input while calls of 2 clients were waiting on it, and its request does not say which call it belongs to .*; declined/,
    );
  });
});

describe('one client disconnecting', () => {
  it('cancels its own call only', async () => {
    const [leaving, staying] = await clients(2);
    const left = leaving!.client
      .callTool({ name: 'modern_http__ask', arguments: { who: 'leaving', delay_ms: 400 } })
      .catch((error: unknown) => error);
    const stayed = staying!.client.callTool({
      name: 'modern_http__ask',
      arguments: { who: staying!.id, delay_ms: 400 },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await leaving!.client.close();
    expect(texts(await stayed)).toEqual([
      `modern_http asked ${staying!.id}, got {"answer":"from ${staying!.id}"}`,
    ]);
    await left;
    expect(leaving!.questions).toEqual([]);
    await staying!.client.close();
    // The gateway's history, once it has stopped (its journal is then in the database).
    await gateway.stop();
    const records = recoveredHistory<{ server: string; arguments: string; status: string }>(
      home,
      'server, arguments, status',
    ).filter((r) => r.server === 'modern_http' && r.arguments.includes('delay_ms":400'));
    expect(records.map((r) => [JSON.parse(r.arguments).who, r.status]).sort()).toEqual([
      ['c1', 'completed'],
      ['leaving', 'cancelled'],
    ]);
  });
});
