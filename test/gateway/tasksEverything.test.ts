// The published server-everything's task tool (`simulate-research-query`, 2025-11-25 core
// tasks: `taskSupport: "required"`, status messages per stage, an elicitation during
// `tasks/result` when the topic is ambiguous) through the library — locally and in an exec
// environment — and through `mcprt serve` to a raw 2025 client that asks for a task.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ElicitationRequest, ProgressUpdate, Runtime, Session, TaskRef } from '@mcprt/runtime';
import { Runtime as RuntimeClass } from '@mcprt/runtime';

import {
  arr,
  EVERYTHING_SERVER,
  makeHome,
  NODE,
  q,
  shExecEnvironment,
  tempDir,
  text,
} from '../helpers/fixtures.js';
import type { LegacyRaw } from './taskHelpers.js';
import { legacyStdio, pollUntilEnded } from './taskHelpers.js';

const STAGES = [
  'Gathering sources...',
  'Analyzing content...',
  'Synthesizing findings...',
  'Generating report...',
];
const everything = (table: string) =>
  `[${table}]\ncommand = ${q(NODE)}\nargs = ${arr([EVERYTHING_SERVER, 'stdio'])}\nstartup_timeout_sec = 30\n`;
const home = makeHome(
  everything('mcp_servers.everything') +
    shExecEnvironment('box', tempDir()) +
    everything('environments.box.mcp_servers.everything'),
);

let runtime: Runtime;
let session: Session;
const asked: ElicitationRequest[] = [];
beforeAll(async () => {
  runtime = RuntimeClass.load({ home, processEnv: process.env });
  session = runtime.startSession({
    onElicitation: async (request) => {
      asked.push(request);
      const schema = request.requestedSchema as {
        properties: { interpretation: { oneOf: { const: string }[] } };
      };
      return {
        action: 'accept',
        content: { interpretation: schema.properties.interpretation.oneOf[1]!.const },
      };
    },
  });
  expect((await session.ready()).failed).toEqual([]);
});
afterAll(async () => {
  await runtime?.close();
});

describe('server-everything’s task tool', () => {
  it.each([undefined, 'box'])(
    'through the library (%s): stages as progress, the report as result',
    async (env) => {
      const progress: ProgressUpdate[] = [];
      const refs: TaskRef[] = [];
      const result = await session.callTool({
        server: 'everything',
        ...(env ? { environmentId: env } : {}),
        tool: 'simulate-research-query',
        arguments: { topic: 'otters' },
        onProgress: (p) => progress.push(p),
        task: { onCreated: (ref) => refs.push(ref) },
      });
      expect(refs).toEqual([{ taskId: expect.any(String) as unknown, wire: 'core' }]);
      expect(text(result)).toContain('# Research Report: otters');
      // The server spends 1 s per stage and suggests polling every second, so which stages a
      // poll sees depends on timing; what holds every time: at least one, each new message
      // relayed once, in the server's order, counted up from 1.
      const messages = progress.map((p) => p.message);
      expect(messages.length).toBeGreaterThan(0);
      const order = messages.map((m) => STAGES.indexOf(m ?? ''));
      expect(order.every((i) => i >= 0)).toBe(true);
      expect(order).toEqual([...order].sort((a, b) => a - b));
      expect(new Set(order).size).toBe(order.length);
      expect(progress.map((p) => p.progress)).toEqual(messages.map((_, i) => i + 1));
    },
  );

  it('an ambiguous topic: the task’s question reaches the host, its answer shapes the report', async () => {
    asked.length = 0;
    const result = await session.callTool({
      server: 'everything',
      environmentId: 'box',
      tool: 'simulate-research-query',
      arguments: { topic: 'otters', ambiguous: true },
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ serverName: 'everything', environmentId: 'box' });
    expect(text(result)).toContain('# Research Report: otters (');
    expect(text(result)).not.toContain('elicitation unavailable');
  });

  it('through `mcprt serve`: a 2025 client’s task, polled, then tasks/result', async () => {
    const client: LegacyRaw = await legacyStdio(home);
    try {
      const tools = (await client.request('tools/list', {})).result!['tools'] as { name: string }[];
      expect(tools.map((t) => t.name)).toContain('everything__simulate_research_query');
      const created = await client.request('tools/call', {
        name: 'everything__simulate_research_query',
        arguments: { topic: 'beavers' },
        task: {},
      });
      const taskId = (created.result!['task'] as { taskId: string }).taskId;
      expect(taskId.startsWith('everything/')).toBe(true);
      const ended = await pollUntilEnded(
        async () => (await client.request('tasks/get', { taskId })).result!,
      );
      expect(ended['status']).toBe('completed');
      const result = await client.request('tasks/result', { taskId });
      expect(text(result.result)).toContain('# Research Report: beavers');
    } finally {
      await client.close();
    }
  });
});
