// The 2026-07-28 revision through the library, against fixture servers built on
// @modelcontextprotocol/server 2.4.0 (2026-only: a 2025 `initialize` is refused), over stdio and
// HTTP on this machine: `protocol_version` (auto, pinned, legacy), an input-required round that
// reaches the session's ordinary `onElicitation` handler (SEP-1034 defaults applied, the opaque
// requestState echoed byte for byte), a JSON Schema 2020-12 input schema kept verbatim in the
// inventory, and SEP-2640 skills listed without reading any file, then read and verified one by
// one (a tampered SKILL.md is refused and nothing after it is read).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ElicitationRequest, Session } from '@mcprt/runtime';
import { SkillVerificationError } from '@mcprt/runtime';

import { arr, echoServer, FIXTURES, NODE, q, text } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const MODERN = join(FIXTURES, 'modern-server.mjs');
const RICH_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { $anchor: 'addr', type: 'object', properties: { city: { type: 'string' } } } },
  properties: { home: { $ref: '#/$defs/address' }, kind: { type: 'string' } },
  additionalProperties: false,
  allOf: [{ required: ['kind'] }],
  if: { properties: { kind: { const: 'home' } } },
  then: { required: ['home'] },
  else: { not: { required: ['home'] } },
};

const load = useRuntimes();

function stdioServer(name: string, version: string, legacy = 'reject'): string {
  return `[mcp_servers.${name}]\ncommand = ${q(NODE)}\nargs = ${arr([MODERN, '--name', name, '--legacy', legacy])}\nprotocol_version = ${q(version)}\nstartup_timeout_sec = 10\n`;
}

describe('2026-07-28 servers through the library', () => {
  let http: ChildProcess;
  let url: string;

  beforeAll(async () => {
    http = spawn(NODE, [MODERN, '--transport', 'http', '--name', 'web'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await new Promise<string>((resolve) =>
      http.stdout!.on('data', (d: Buffer) => {
        const m = /PORT (\d+)/.exec(String(d));
        if (m) resolve(m[1]!);
      }),
    );
    url = `http://127.0.0.1:${port}/mcp`;
  });

  afterAll(() => {
    http?.kill();
  });

  const httpServer = (name: string, version: string) =>
    `[mcp_servers.${name}]\nurl = ${q(url)}\nprotocol_version = ${q(version)}\nstartup_timeout_sec = 10\n`;

  it('connects with auto and a pinned revision (stdio and HTTP); legacy is refused by a 2026-only server', async () => {
    const runtime = load(
      [
        stdioServer('auto', 'auto'),
        stdioServer('pinned', '2026-07-28'),
        stdioServer('legacy', '2025-11-25'),
        stdioServer('dual', '2025-11-25', 'serve'),
        httpServer('webauto', 'auto'),
        httpServer('webpinned', '2026-07-28'),
        httpServer('weblegacy', '2025-11-25'),
        echoServer('mcp_servers.old', 'old', 'protocol_version = "2026-07-28"'),
        echoServer('mcp_servers.oldauto', 'oldauto'),
      ].join('\n'),
    );
    const session = runtime.startSession();
    await session.ready();
    const status = (name: string) => session.status(name).connectionStatus;
    for (const name of ['auto', 'pinned', 'dual', 'webauto', 'webpinned', 'oldauto'])
      expect(status(name), name).toBe('connected');
    // A 2026-only server refuses the 2025 handshake; a 2025-only server cannot be pinned to 2026.
    for (const name of ['legacy', 'weblegacy', 'old']) expect(status(name), name).toBe('failed');
    for (const name of ['auto', 'pinned', 'dual', 'webauto']) {
      const result = await session.callTool({
        server: name,
        tool: 'echo',
        arguments: { message: 'hi' },
      });
      expect(text(result)).toBe(`${name.startsWith('web') ? 'web' : name}: hi`);
    }
  });

  for (const transport of ['stdio', 'http'] as const) {
    describe(`over ${transport}`, () => {
      const asked: ElicitationRequest[] = [];
      let answer: 'accept' | 'decline' = 'accept';

      /** A session with the fixture (the runtime closes after each test). */
      async function open(): Promise<Session> {
        const runtime = load(
          transport === 'stdio' ? stdioServer('modern', 'auto') : httpServer('modern', 'auto'),
        );
        const session = runtime.startSession({
          onElicitation: async (request) => {
            asked.push(request);
            return answer === 'accept' ? { action: 'accept', content: {} } : { action: 'decline' };
          },
        });
        await session.ready();
        expect(session.status('modern').connectionStatus).toBe('connected');
        return session;
      }

      it('answers an input-required round through onElicitation, echoing requestState', async () => {
        const session = await open();
        const accepted = await session.callTool({ server: 'modern', tool: 'confirm' });
        expect(text(accepted)).toBe('accepted {"ok":true,"who":"nobody"}; state intact');
        expect(asked).toHaveLength(1);
        expect(asked[0]).toMatchObject({
          serverName: 'modern',
          environmentId: null,
          mode: 'form',
          message: 'Proceed?',
        });
        answer = 'decline';
        const declined = await session.callTool({ server: 'modern', tool: 'confirm' });
        expect(text(declined)).toBe('not accepted; state intact');
        expect(asked).toHaveLength(2);
      });

      it('keeps a JSON Schema 2020-12 input schema verbatim in the inventory', async () => {
        const session = await open();
        const tool = session.status('modern').tools.find((t) => t.name === 'rich');
        expect(tool?.inputSchema).toEqual(RICH_SCHEMA);
        expect(tool?.definition['inputSchema']).toEqual(RICH_SCHEMA);
      });

      it('lists skills without reading a file, then reads and verifies one file at a time', async () => {
        const session = await open();
        const reads = async () =>
          JSON.parse(text(await session.callTool({ server: 'modern', tool: 'skill_reads' })));
        const { skills, invalid } = await session.listSkills({ server: 'modern' });
        expect(invalid).toEqual([]);
        expect(skills.map((s) => s.uri).sort()).toEqual([
          'skill://guide/SKILL.md',
          'skill://tampered/SKILL.md',
        ]);
        expect(await reads()).toEqual([]);

        const guide = skills.find((s) => s.frontmatter.name === 'guide')!;
        const manifest = await session.readSkillFile({ server: 'modern', skill: guide });
        expect(manifest).toMatchObject({
          verified: true,
          frontmatter: { name: 'guide', description: 'How to use the fixture' },
          body: '\nRead references/GUIDE.md.\n',
        });
        const file = await session.readSkillFile({
          server: 'modern',
          skill: guide,
          path: 'references/GUIDE.md',
        });
        expect(file.text).toBe('The guide.\n');
        expect(await reads()).toEqual([
          'skill://guide/SKILL.md',
          'skill://guide/references/GUIDE.md',
        ]);

        const tampered = skills.find((s) => s.frontmatter.name === 'tampered')!;
        const error = await session
          .readSkillFile({ server: 'modern', skill: tampered })
          .catch((e: unknown) => e as SkillVerificationError);
        expect(error).toBeInstanceOf(SkillVerificationError);
        expect(error).toMatchObject({
          reason: 'digest',
          uri: 'skill://tampered/SKILL.md',
          server: 'modern',
          code: 'skill_verification_failed',
        });
        expect((error as Error).message).toMatch(
          /^skill file of MCP server `modern` failed verification \(digest\): /,
        );
        // A file not listed in the entry is refused before any request.
        const unlisted = await session
          .readSkillFile({ server: 'modern', skill: guide, path: 'references/SECRET.md' })
          .catch((e: unknown) => e as SkillVerificationError);
        expect(unlisted).toMatchObject({ reason: 'unlisted' });
        expect((await reads()).filter((u: string) => u.startsWith('skill://tampered'))).toEqual([
          'skill://tampered/SKILL.md',
        ]);
      });
    });
  }

  it('lists no skills for a server without the extension', async () => {
    const runtime = load(echoServer('mcp_servers.old', 'old'));
    const session = runtime.startSession();
    await session.ready();
    expect(await session.listSkills({ server: 'old' })).toEqual({ skills: [], invalid: [] });
  });
});
