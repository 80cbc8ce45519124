/**
 * Codex 0.171 itself as the gateway's client. `codex app-server` runs with a CODEX_HOME whose
 * config has `[mcp_servers.mcprt] command = <node> args = [<cli>, "serve", …]` (and, to compare,
 * a sandbox-aware server of its own), and is driven over its JSON-RPC: `thread/start`,
 * `mcpServerStatus/list`, `mcpServer/tool/call`, `mcpServer/resource/read`, answering its
 * `mcpServer/elicitation/request`s. Codex keeps one registration per name per thread; through the
 * gateway it sees `shared` of two environments as two tools, reads the same URI from each,
 * answers an elicitation from each; and the sandbox-aware server behind the gateway receives
 * exactly the `codex/sandbox-state` text Codex sends (both keys), without the spoofs Codex passes
 * through. Codex is installed into a cache outside the repository (bench/lib/codex.mjs); when that
 * is impossible (no network) the suite is skipped and says why.
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CODEX_VERSION, CodexUnavailableError, ensureCodex } from '../../bench/lib/codex.mjs';
import { arr, makeHome, NODE, q, shExecEnvironment, tempDir } from '../helpers/fixtures.js';
import type { Message } from '../helpers/rpcClient.js';
import { RawAppServer } from '../helpers/rpcClient.js';
import { assertBubblewrapWorks, META_SERVER } from '../sandbox/helpers.js';
import { CLI, stdioServer, texts, twoExecEnvironments } from './helpers.js';

let codexBin: string | null = null;
let unavailable = '';
try {
  codexBin = ensureCodex((line) => console.warn(line)).bin;
} catch (error) {
  if (!(error instanceof CodexUnavailableError)) throw error;
  unavailable = error.message;
  console.warn(`skipping the Codex ${CODEX_VERSION} gateway tests: ${unavailable}`);
}

/** The exact JSON text of `key`'s value in a JSON document (a balanced scan, no re-encoding). */
function rawValue(text: string, key: string): string {
  const marker = `${JSON.stringify(key)}:`;
  const start = text.indexOf(marker);
  if (start < 0) throw new Error(`no ${key} in ${text}`);
  const begin = start + marker.length;
  let depth = 0;
  let inString = false;
  for (let i = begin; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === '{' || c === '[') {
      depth++;
    } else if (c === '}' || c === ']') {
      if (depth === 0) return text.slice(begin, i);
      if (--depth === 0) return text.slice(begin, i + 1);
    } else if (c === ',' && depth === 0) {
      return text.slice(begin, i);
    }
  }
  throw new Error(`unterminated value of ${key}`);
}

describe.skipIf(codexBin === null)(
  codexBin === null
    ? `Codex ${CODEX_VERSION} through mcprt serve (skipped: ${unavailable})`
    : `Codex ${CODEX_VERSION} through mcprt serve`,
  () => {
    let codex: RawAppServer;
    let threadId: string;

    beforeAll(async () => {
      assertBubblewrapWorks();
      const gatewayHome = makeHome(
        twoExecEnvironments() +
          stdioServer('mcp_servers.sbx', META_SERVER, ['--capability', 'both']) +
          shExecEnvironment('remote', tempDir()) +
          stdioServer('environments.remote.mcp_servers.sbx', META_SERVER, ['--capability', 'both']),
      );
      const codexHome = tempDir('mcprt-codex-home-');
      writeFileSync(
        join(codexHome, 'config.toml'),
        `[mcp_servers.mcprt]\ncommand = ${q(NODE)}\nargs = ${arr([CLI, '--home', gatewayHome, 'serve'])}\nstartup_timeout_sec = 60\n\n` +
          `[mcp_servers.direct]\ncommand = ${q(NODE)}\nargs = ${arr([META_SERVER, '--capability', 'current'])}\n`,
      );
      codex = RawAppServer.spawn(codexBin!, ['app-server'], {
        ...process.env,
        CODEX_HOME: codexHome,
      });
      await codex.initialize();
      const started = await codex.call<{ thread: { id: string } }>('thread/start', {
        ephemeral: true,
        cwd: tempDir('mcprt-codex-cwd-'),
      });
      threadId = started.thread.id;
      for (const name of ['mcprt', 'direct']) {
        const update = await codex.waitFor(
          (m) =>
            m.method === 'mcpServer/startupStatus/updated' &&
            (m.params as { name: string; status: string }).name === name &&
            ['ready', 'failed'].includes((m.params as { status: string }).status),
          90_000,
        );
        expect(
          (update.params as { status: string; error: unknown }).status,
          JSON.stringify(update),
        ).toBe('ready');
      }
    });
    afterAll(async () => {
      await codex?.close();
    });

    const callTool = (server: string, tool: string, extra: Record<string, unknown> = {}) =>
      codex.call<Record<string, unknown>>('mcpServer/tool/call', {
        threadId,
        server,
        tool,
        ...extra,
      });

    it('sees `shared` of both environments as two tools of `mcprt`, and calls each', async () => {
      const list = await codex.call<{ data: { name: string; tools: Record<string, unknown> }[] }>(
        'mcpServerStatus/list',
        { threadId, serverName: 'mcprt', detail: 'toolsAndAuthOnly' },
      );
      const tools = Object.keys(list.data[0]?.tools ?? {});
      expect(tools).toEqual(expect.arrayContaining(['a__shared__echo', 'b__shared__echo']));
      const a = list.data[0]!.tools['a__shared__echo'] as { title?: string; description?: string };
      expect(a.description).toBe('[shared@a] Echo the message back');
      for (const env of ['a', 'b']) {
        const result = await callTool('mcprt', `${env}__shared__echo`, {
          arguments: { message: 'from codex' },
        });
        expect(result).toEqual({ content: [{ type: 'text', text: `shared-${env}: from codex` }] });
      }
    });

    it('reads the same URI from both environments', async () => {
      for (const env of ['a', 'b']) {
        const uri = `mcprt://env/${env}/shared/fixture://greeting`;
        const read = await codex.call<{ contents: unknown[] }>('mcpServer/resource/read', {
          threadId,
          server: 'mcprt',
          uri,
        });
        expect(read.contents).toEqual([{ uri, text: `hello from shared-${env}` }]);
      }
    });

    it('answers an elicitation from each, asked at once; each answer reaches its asker', async () => {
      const seen: Message[] = [];
      const answer = async () => {
        const request = await codex.waitFor(
          (m) =>
            m.method === 'mcpServer/elicitation/request' && m.id !== undefined && !seen.includes(m),
          30_000,
        );
        seen.push(request);
        const message = (request.params as { message: string }).message;
        const label = /^\[([^\]]+)\]/.exec(message)?.[1] ?? 'unlabelled';
        codex.send({
          id: request.id,
          result: { action: 'accept', content: { answer: `codex for ${label}` } },
        });
      };
      const calls = Promise.all(['a', 'b'].map((env) => callTool('mcprt', `${env}__shared__ask`)));
      await answer();
      await answer();
      const results = await calls;
      results.forEach((result, i) => {
        const env = ['a', 'b'][i]!;
        expect(JSON.parse(texts(result)[0]!)).toEqual({
          action: 'accept',
          content: { answer: `codex for shared@${env}`, count: 7 },
        });
      });
      expect(seen.map((m) => (m.params as { serverName: string }).serverName)).toEqual([
        'mcprt',
        'mcprt',
      ]);
    });

    it("forwards Codex's sandbox state byte for byte under both keys, strips the spoofs Codex passes on", async () => {
      const spoof = { 'codex/sandbox-evil': 'SPOOF-META', 'codex/sandbox-state': 'SPOOF-STATE' };
      const args = {
        _meta: {
          'codex/sandbox-state': 'SPOOF-ARGS',
          'codex/sandbox-launcher': { codexExecutable: '/evil' },
        },
      };
      const direct = texts(await callTool('direct', 'meta', { arguments: args, _meta: spoof }))[0]!;
      const behind = texts(
        await callTool('mcprt', 'sbx__meta', { arguments: args, _meta: spoof }),
      )[0]!;
      const remote = texts(
        await callTool('mcprt', 'remote__sbx__meta', { arguments: args, _meta: spoof }),
      )[0]!;

      // What Codex itself sends a sandbox-aware server.
      const state = rawValue(direct, 'codex/sandbox-state');
      expect(state).toContain('"permissionProfile"');
      expect(rawValue(direct, 'codex/sandbox-state-meta')).toBe(state);
      // Codex passes these spoofs on to its servers as they are ...
      expect(direct).toContain('SPOOF-META');
      expect(direct).toContain('SPOOF-ARGS');

      for (const line of [behind, remote]) {
        // ... the gateway forwards Codex's state as the same text, under both keys ...
        expect(rawValue(line, 'codex/sandbox-state')).toBe(state);
        expect(rawValue(line, 'codex/sandbox-state-meta')).toBe(state);
        // ... and strips every spoof.
        expect(line).not.toContain('SPOOF');
        expect(line).not.toContain('/evil');
      }
      // Codex's launcher passed the gateway's own probe: a local stdio server gets it, others not.
      const launcher = rawValue(direct, 'codex/sandbox-launcher');
      expect(launcher).toContain(codexBin!);
      expect(rawValue(behind, 'codex/sandbox-launcher')).toBe(launcher);
      expect(remote).not.toContain('codex/sandbox-launcher');
    });
  },
);
