/**
 * Finding 4 of issue #14, end to end: tool calls through real servers into the real SQLite
 * history file. Secret-looking argument keys (normalised: `githubToken`, `auth_token`,
 * `private_key`, `Cookie`, nested `credentials.pass`), secret values inside strings (a URL's
 * `?access_token=`, `GITHUB_TOKEN=…` inside an array, `Bearer …`), results and error texts are
 * stored redacted — checked in what `list` returns and in the bytes of the database and the
 * journal (ADR 0017) — and
 * `redact_keys` adds to the defaults unless `redact_keys_replace = true`.
 *
 * Issue #33, F2: a result over `max_result_bytes` is redacted whole before it is cut, so a
 * private key or a JWT that straddles the cut leaves no part of itself in the stored history.
 */

import { randomBytes } from 'node:crypto';

import type { Runtime } from '@mcprt/runtime';
import { describe, expect, it } from 'vitest';

import { echoServer, makeHome } from '../helpers/fixtures.js';
import { historyBytes, journalFiles } from '../helpers/history.js';
import { Runtime as RuntimeClass } from '@mcprt/runtime';
import { metaServer } from '../sandbox/helpers.js';

const secret = (name: string) => `${name}-${randomBytes(8).toString('hex')}`;

function open(history: string): { runtime: Runtime; home: string } {
  const home = makeHome(
    `${echoServer('mcp_servers.echo', 'echo')}${metaServer('mcp_servers.meta', 'none')}${history}`,
  );
  return { runtime: RuntimeClass.load({ home }), home };
}

/** The history's bytes on disk: database, write-ahead log and journal files. */
const databaseBytes = historyBytes;

describe('history redaction', () => {
  it('redacts keys, values inside strings, results and error texts', async () => {
    const s = {
      githubToken: secret('gh'),
      authToken: secret('auth'),
      privateKey: secret('pk'),
      cookie: secret('cookie'),
      pass: secret('pass'),
      accessToken: secret('at'),
      envToken: secret('env'),
      bearer: secret('bearer1'),
      resultToken: secret('res'),
      errorToken: secret('err'),
    };
    const { runtime, home } = open('');
    try {
      const session = runtime.startSession({ threadId: 'redaction' });
      await session.ready();
      await session.callTool({
        server: 'meta',
        tool: 'meta',
        arguments: {
          githubToken: s.githubToken,
          auth_token: s.authToken,
          private_key: s.privateKey,
          Cookie: s.cookie,
          credentials: { user: 'u', pass: s.pass },
          url: `https://api.example.com/x?access_token=${s.accessToken}&page=2`,
          env: ['PATH=/usr/bin', `GITHUB_TOKEN=${s.envToken}`],
          keyboard: 'qwerty',
        },
      });
      // The echo server returns the message: the secret is in the result's text.
      await session.callTool({
        server: 'echo',
        tool: 'echo',
        arguments: { message: `curl -H 'Authorization: Bearer ${s.resultToken}' x` },
      });
      await expect(
        session.callTool({
          server: 'meta',
          tool: 'error',
          arguments: { message: `upstream rejected api_key=${s.errorToken}` },
        }),
      ).rejects.toThrow(s.errorToken); // the caller still gets the real error
      const page = runtime.history!.list({ threadId: 'redaction' });
      const [failed, echoed, meta] = page.data;
      expect(meta!.arguments).toEqual({
        githubToken: '[REDACTED]',
        auth_token: '[REDACTED]',
        private_key: '[REDACTED]',
        Cookie: '[REDACTED]',
        credentials: '[REDACTED]',
        url: 'https://api.example.com/x?access_token=[REDACTED]&page=2',
        env: ['PATH=/usr/bin', 'GITHUB_TOKEN=[REDACTED]'],
        keyboard: 'qwerty',
      });
      // The meta server's result is the request line itself: redacted the same way.
      expect(JSON.stringify(meta!.result)).toContain('keyboard');
      expect(JSON.stringify(echoed!.result)).toContain('Authorization: [REDACTED]');
      expect(failed!.status).toBe('failed');
      expect(failed!.error).toContain('api_key=[REDACTED]');
      runtime.history!.flush();
      expect(journalFiles(home)).toHaveLength(1); // the records as journalled, checked too
      const everything = JSON.stringify(page) + databaseBytes(home);
      for (const [name, value] of Object.entries(s)) {
        expect(everything, name).not.toContain(value);
      }
    } finally {
      await runtime.close();
    }
  });

  it('redact_keys adds to the defaults; redact_keys_replace = true keeps only the listed keys', async () => {
    const record = async (history: string) => {
      const { runtime } = open(history);
      try {
        const session = runtime.startSession({ threadId: 'keys' });
        await session.ready();
        await session.callTool({
          server: 'meta',
          tool: 'meta',
          arguments: { ssn: '078-05-1120', password: 'pw', note: 'n' },
        });
        return runtime.history!.list({ threadId: 'keys' }).data[0]!.arguments;
      } finally {
        await runtime.close();
      }
    };
    expect(await record('[history]\nredact_keys = ["ssn"]\n')).toEqual({
      ssn: '[REDACTED]',
      password: '[REDACTED]',
      note: 'n',
    });
    expect(await record('[history]\nredact_keys = ["ssn"]\nredact_keys_replace = true\n')).toEqual({
      ssn: '[REDACTED]',
      password: 'pw',
      note: 'n',
    });
  });

  it('a result over max_result_bytes is stored as a redacted preview', async () => {
    const token = secret('big');
    const { runtime, home } = open('[history]\nmax_result_bytes = 256\n');
    try {
      const session = runtime.startSession({ threadId: 'big' });
      await session.ready();
      await session.callTool({
        server: 'echo',
        tool: 'echo',
        arguments: { message: `export API_TOKEN=${token} ${'x'.repeat(2000)}` },
      });
      const [entry] = runtime.history!.list({ threadId: 'big' }).data;
      expect(entry!.resultTruncated).toBe(true);
      expect((entry!.result as { preview: string }).preview).toContain('API_TOKEN=[REDACTED]');
      runtime.history!.flush();
      expect(databaseBytes(home)).not.toContain(token);
    } finally {
      await runtime.close();
    }
  });

  it('a secret across the max_result_bytes cut leaves no part of itself (issue #33, F2)', async () => {
    const b64url = (n: number) => randomBytes(n).toString('base64url');
    const keyBody = randomBytes(600)
      .toString('base64')
      .replace(/(.{64})/g, '$1\n');
    const pem = `-----BEGIN PRIVATE KEY-----\n${keyBody}\n-----END PRIVATE KEY-----`;
    const jwtParts = [b64url(40), b64url(32)];
    const jwt = `eyJhbGciOiJIUzI1NiJ9.${jwtParts.join('.')}`;
    const { runtime, home } = open('[history]\nmax_result_bytes = 256\n');
    try {
      const session = runtime.startSession({ threadId: 'cut' });
      await session.ready();
      // The stored preview is about the first 156 bytes of the result's JSON: at these offsets
      // each secret starts before the cut and ends after it.
      for (const pad of [40, 80, 110]) {
        for (const secretText of [pem, jwt]) {
          await session.callTool({
            server: 'echo',
            tool: 'echo',
            arguments: { message: `${'p'.repeat(pad)} ${secretText} ${'z'.repeat(1000)}` },
          });
        }
      }
      const page = runtime.history!.list({ threadId: 'cut' });
      expect(page.data).toHaveLength(6);
      for (const entry of page.data) expect(entry.resultTruncated).toBe(true);
      runtime.history!.flush();
      const everything = JSON.stringify(page) + databaseBytes(home);
      expect(everything).not.toContain('BEGIN PRIVATE KEY');
      // No 8-character piece of the random parts of either secret, JSON-escaped or not.
      const pieces = (text: string) =>
        Array.from({ length: Math.max(0, text.length - 7) }, (_, i) => text.slice(i, i + 8));
      for (const part of [...keyBody.split('\n'), ...jwtParts]) {
        for (const piece of pieces(part)) expect(everything, piece).not.toContain(piece);
      }
    } finally {
      await runtime.close();
    }
  });
});
