// Every registration reports the MCP protocol revision it negotiated, over the app-server's wire
// and through the typed SDK: a 2026-only server (2026-07-28, after `server/discover`) and a
// 2025-only one (2025-11-25, after `initialize`) sharing a name in two environments, a dual-era
// server pinned to 2025-11-25, and a disabled server (no revision). `protocolVersion` is an mcprt
// extra on Codex's `McpServerStatus`: every answer still validates against Codex 0.171's schema
// and against mcprt's own generated one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';

import { McprtClient } from '@mcprt/sdk';

import { assertCodexSchema } from '../helpers/codexSchema.js';
import { makeHome, REPO_ROOT, tempDir } from '../helpers/fixtures.js';
import { CLI, RawAppServer } from '../helpers/rpcClient.js';
import { EXPECTED_REVISIONS, label, mixedRevisionsConfig } from '../helpers/revisions.js';

const HOME = makeHome(mixedRevisionsConfig());
const ENVIRONMENTS = [
  { environmentId: 'new', cwd: tempDir() },
  { environmentId: 'old', cwd: tempDir() },
];

interface Item {
  name: string;
  environmentId: string | null;
  runtimeStatus: string | null;
  protocolVersion?: string | undefined;
}

/** mcprt's own committed schema for the result (packages/protocol/schema/json). */
function assertOwnSchema(result: unknown): void {
  const file = join(REPO_ROOT, 'packages/protocol/schema/json/ListMcpServerStatusResult.json');
  const ajv = new Ajv({ strict: false, validateFormats: false });
  const validate = ajv.compile(JSON.parse(readFileSync(file, 'utf8')) as object);
  expect(validate(result), ajv.errorsText(validate.errors)).toBe(true);
}

function revisions(items: readonly Item[]): Record<string, string | undefined> {
  return Object.fromEntries(items.map((s) => [label(s), s.protocolVersion]));
}

describe('app-server: mcpServerStatus/list reports the negotiated revision', () => {
  let server: RawAppServer;
  beforeAll(async () => {
    server = RawAppServer.start(HOME);
    await server.initialize();
  });
  afterAll(async () => {
    expect(await server.close()).toBe(0);
  });

  it('per registration scope, in a thread', { timeout: 60_000 }, async () => {
    const { thread } = await server.call<{ thread: { id: string } }>('thread/start', {
      ephemeral: true,
      environments: ENVIRONMENTS,
    });
    for (const name of ['pinned', 'shared@new', 'shared@old'])
      await server.waitFor((m) => {
        const p = m.params as { name?: string; environmentId?: string | null; status?: string };
        return (
          m.method === 'mcpServer/startupStatus/updated' &&
          label({ name: p.name ?? '', environmentId: p.environmentId ?? null }) === name &&
          p.status === 'ready'
        );
      }, 40_000);
    const list = await server.call<{ data: Item[] }>('mcpServerStatus/list', {
      threadId: thread.id,
    });
    assertCodexSchema('ListMcpServerStatusResponse', list);
    assertOwnSchema(list);
    expect(revisions(list.data)).toEqual(EXPECTED_REVISIONS);
    const off = list.data.find((s) => s.name === 'off')!;
    expect(off.runtimeStatus).toBe('disabled');
    expect(off).not.toHaveProperty('protocolVersion');

    // The selector narrows to one scope; the revision stays that scope's.
    const one = await server.call<{ data: Item[] }>('mcpServerStatus/list', {
      threadId: thread.id,
      serverName: 'shared',
      environmentId: 'new',
    });
    expect(one.data.map((s) => [label(s), s.protocolVersion])).toEqual([
      ['shared@new', '2026-07-28'],
    ]);
  });

  it('without a thread (the shared probe session)', { timeout: 60_000 }, async () => {
    const list = await server.call<{ data: Item[] }>('mcpServerStatus/list', {
      detail: 'toolsAndAuthOnly',
    });
    assertCodexSchema('ListMcpServerStatusResponse', list);
    expect(revisions(list.data)).toEqual(EXPECTED_REVISIONS);
  });
});

describe('SDK: the typed status item carries protocolVersion', () => {
  it('over a spawned app-server', { timeout: 60_000 }, async () => {
    const client = await McprtClient.spawn({ args: [CLI, '--home', HOME, 'app-server'] });
    try {
      const { thread } = await client.request('thread/start', { environments: ENVIRONMENTS });
      let list = await client.request('mcpServerStatus/list', { threadId: thread.id });
      const deadline = Date.now() + 40_000;
      while (list.data.some((s) => s.runtimeStatus === 'starting') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        list = await client.request('mcpServerStatus/list', { threadId: thread.id });
      }
      const item = list.data[0]!;
      expectTypeOf(item.protocolVersion).toEqualTypeOf<string | undefined>();
      expect(revisions(list.data)).toEqual(EXPECTED_REVISIONS);
    } finally {
      await client.close();
    }
  });
});
