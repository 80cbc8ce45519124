// Elicitation across protocol revisions through the real app-server: three servers named
// `shared` in three exec environments of one thread — two on 2026-07-28 (asking inside their
// calls, input-required rounds) and one on 2025-11-25 (asking with an `elicitation/create`
// request) — elicit at the same time. Each `mcpServer/elicitation/request` the host receives
// names its own scope and is valid against Codex 0.171's schema; each answer reaches only the
// server that asked.
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { McprtClient } from '@mcprt/sdk';

import { assertCodexSchema } from '../helpers/codexSchema.js';
import {
  arr,
  echoServer,
  FIXTURES,
  makeHome,
  NODE,
  q,
  REPO_ROOT,
  shExecEnvironment,
  tempDir,
  text,
  waitFor,
} from '../helpers/fixtures.js';
import { CLI } from '../helpers/rpcClient.js';

const MODERN = join(FIXTURES, 'modern-server.mjs');
const modern = (env: string) =>
  `[environments.${env}.mcp_servers.shared]\ncommand = ${q(NODE)}\nargs = ${arr([MODERN, '--name', `shared-${env}`])}\nstartup_timeout_sec = 20\n`;

const CONFIG =
  shExecEnvironment('alpha', tempDir()) +
  shExecEnvironment('beta', tempDir()) +
  shExecEnvironment('gamma', tempDir()) +
  modern('alpha') +
  echoServer('environments.beta.mcp_servers.shared', 'shared-beta') +
  modern('gamma');

type Params = Record<string, unknown>;

describe('elicitation from 2026 and 2025 servers through the app-server', () => {
  it('relays concurrent asks of same-named servers per scope; each answer reaches its asker', async () => {
    const client = await McprtClient.spawn({
      args: [CLI, '--home', makeHome(CONFIG), 'app-server'],
      cwd: REPO_ROOT,
    });
    try {
      const requests: Params[] = [];
      client.handleRequest('mcpServer/elicitation/request', async (params) => {
        requests.push(params as Params);
        assertCodexSchema('McpServerElicitationRequestParams', params);
        // Hold every ask until all three are in flight at once.
        await waitFor(() => requests.length === 3, 15_000, 'three elicitations');
        const schema = params.mode === 'form' ? params.requestedSchema : null;
        const field = schema && 'note' in (schema.properties ?? {}) ? 'note' : 'answer';
        const reply = {
          action: 'accept' as const,
          content: { [field]: `from ${String(params.environmentId)}` },
        };
        assertCodexSchema('McpServerElicitationRequestResponse', reply);
        return reply;
      });
      const { thread } = await client.request('thread/start', {
        environments: ['alpha', 'beta', 'gamma'].map((environmentId) => ({
          environmentId,
          cwd: tempDir(),
        })),
      });
      const [alpha, beta, gamma] = await Promise.all(
        [
          ['alpha', 'round_trip'],
          ['beta', 'ask'],
          ['gamma', 'round_trip'],
        ].map(([environmentId, tool]) =>
          client.request('mcpServer/tool/call', {
            threadId: thread.id,
            server: 'shared',
            environmentId,
            tool: tool!,
          }),
        ),
      );
      const response = (result: unknown) =>
        (JSON.parse(text(result)) as { response: unknown }).response;
      expect(response(alpha)).toEqual({ action: 'accept', content: { note: 'from alpha' } });
      expect(response(gamma)).toEqual({ action: 'accept', content: { note: 'from gamma' } });
      // The 2025 server's `count` comes from its schema's default (SEP-1034), as on 2026.
      expect(JSON.parse(text(beta))).toEqual({
        action: 'accept',
        content: { answer: 'from beta', count: 7 },
      });

      const byEnv = (env: string) => requests.find((r) => r['environmentId'] === env);
      expect(byEnv('alpha')).toEqual({
        threadId: thread.id,
        turnId: null,
        serverName: 'shared',
        environmentId: 'alpha',
        mode: 'form',
        _meta: null,
        message: 'shared-alpha wants an answer',
        requestedSchema: {
          type: 'object',
          properties: { note: { type: 'string', default: 'none' } },
        },
      });
      expect(byEnv('gamma')).toMatchObject({
        serverName: 'shared',
        environmentId: 'gamma',
        message: 'shared-gamma wants an answer',
      });
      expect(byEnv('beta')).toMatchObject({
        threadId: thread.id,
        serverName: 'shared',
        environmentId: 'beta',
        mode: 'form',
        message: 'shared-beta asks',
      });
      expect(requests).toHaveLength(3);

      const status = await client.request('mcpServerStatus/list', { threadId: thread.id });
      expect(status.data.map((s) => `${s.name}@${String(s.environmentId)}`).sort()).toEqual([
        'shared@alpha',
        'shared@beta',
        'shared@gamma',
      ]);
    } finally {
      await client.close();
    }
  });
});
