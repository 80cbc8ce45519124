/**
 * `mcprt serve --listen https://…` (issue 30, point 4): HTTPS with the operator's certificate and
 * key, verified by a client that trusts that certificate (verification on) and refused by one
 * that does not; beyond loopback only with HTTPS and `[serve.auth] mode = "oauth"`; and every
 * refusal — plain HTTP beyond loopback, HTTPS with the static token beyond loopback, a missing
 * `--tls-key`, TLS flags with http://, an unreadable or mismatched certificate, a token file in
 * oauth mode — one line naming what is missing. The certificate is made here with the system
 * `openssl`; the gateway is the built CLI.
 */

import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { FetchLike } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { echoServer, makeHome, NODE, tempDir } from '../helpers/fixtures.js';
import { CLI, texts, TOKEN } from './helpers.js';

/** A non-loopback IPv4 address of this machine, else the wildcard address. */
const REMOTE =
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal)?.address ?? '0.0.0.0';

const dir = tempDir('mcprt-tls-');
const files = {
  cert: join(dir, 'cert.pem'),
  key: join(dir, 'key.pem'),
  otherCert: join(dir, 'other-cert.pem'),
  otherKey: join(dir, 'other-key.pem'),
  token: join(dir, 'token'),
};
const ISSUER = 'https://issuer.example';
const tokenHome = makeHome(echoServer('mcp_servers.echo', 'echo'));
const oauthHome = makeHome(
  echoServer('mcp_servers.echo', 'echo') + `\n[serve.auth]\nmode = "oauth"\nissuer = "${ISSUER}"\n`,
);

/** A self-signed P-256 certificate for 127.0.0.1 and the remote address (it is its own CA). */
function makeCertificate(cert: string, key: string): void {
  const san = `subjectAltName=IP:127.0.0.1,DNS:localhost${REMOTE === '0.0.0.0' ? '' : `,IP:${REMOTE}`}`;
  const r = spawnSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
      ...['-days', '1', '-subj', '/CN=mcprt-test', '-addext', san, '-keyout', key, '-out', cert],
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`openssl failed: ${r.error?.message ?? r.stderr}`);
}

/** A fetch that verifies the server against `ca` only (node:https; verification stays on). */
function trustingFetch(ca: Buffer): FetchLike {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const headers = Object.fromEntries(new Headers(init?.headers));
      const method = init?.method ?? 'GET';
      const signal = init?.signal ?? undefined;
      const req = httpsRequest(new URL(String(input)), { method, headers, ca, signal }, (res) => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of [value ?? []].flat()) responseHeaders.append(name, v);
        }
        const status = res.statusCode ?? 0;
        const empty = status === 204 || status === 304 || method === 'HEAD';
        const body = empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        resolve(new Response(body, { status, headers: responseHeaders }));
      });
      req.once('error', reject);
      req.end(typeof init?.body === 'string' ? init.body : undefined);
    });
}

interface Started {
  readonly url: string;
  readonly child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

/** `mcprt --home HOME serve ARGS…` until it says where it listens. */
async function start(home: string, args: readonly string[]): Promise<Started> {
  const child = spawn(NODE, [CLI, '--home', home, 'serve', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve exited with ${String(code)}: ${stderr}`)));
    child.stderr!.on('data', (d: Buffer) => {
      stderr += String(d);
      const m = /listening on (\S+)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, child, stderr: () => stderr, stop };
}

function serve(home: string, args: readonly string[]) {
  return spawnSync(NODE, [CLI, '--home', home, 'serve', ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });
}

const tls = ['--tls-cert', files.cert, '--tls-key', files.key];

beforeAll(() => {
  makeCertificate(files.cert, files.key);
  makeCertificate(files.otherCert, files.otherKey);
  writeFileSync(files.token, `${TOKEN}\n`, { mode: 0o600 });
});

describe('HTTPS on loopback (token mode)', () => {
  let gateway: Started;
  beforeAll(async () => {
    gateway = await start(tokenHome, [
      ...['--listen', 'https://127.0.0.1:0', '--http-token-file', files.token],
      ...tls,
    ]);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  const connect = async (fetch?: FetchLike, era: 'legacy' | 'auto' = 'legacy') => {
    const client = new Client(
      { name: 'tls-test', version: '1.0.0' },
      era === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(gateway.url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        ...(fetch !== undefined ? { fetch } : {}),
      }),
    );
    return client;
  };

  it('prints the https URL and serves a client that trusts the certificate, in both eras', async () => {
    expect(gateway.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(gateway.stderr()).toContain(`(bearer token in ${files.token})`);
    for (const era of ['legacy', 'auto'] as const) {
      const client = await connect(trustingFetch(readFileSync(files.cert)), era);
      try {
        const result = await client.callTool({ name: 'echo__echo', arguments: { message: era } });
        expect(texts(result)).toEqual([`echo: ${era}`]);
      } finally {
        await client.close();
      }
    }
  });

  it('is refused by a client that does not trust the certificate', async () => {
    await expect(connect()).rejects.toThrow();
    await expect(connect(trustingFetch(readFileSync(files.otherCert)))).rejects.toThrow(
      /self[- ]signed|certificate/i,
    );
  });
});

describe('HTTPS beyond loopback', () => {
  it('listens with [serve.auth] mode = "oauth"; a request without a token is 401', async () => {
    const gateway = await start(oauthHome, ['--listen', `https://${REMOTE}:0`, ...tls]);
    try {
      expect(gateway.url).toMatch(
        new RegExp(`^https://${REMOTE.replaceAll('.', '\\.')}:\\d+/mcp$`),
      );
      expect(gateway.stderr()).toContain(`(OAuth access tokens of ${ISSUER})`);
      const port = new URL(gateway.url).port;
      const host = REMOTE === '0.0.0.0' ? '127.0.0.1' : REMOTE;
      const response = await trustingFetch(readFileSync(files.cert))(
        `https://${host}:${port}/mcp`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        },
      );
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    } finally {
      await gateway.stop();
    }
  });

  it('refuses plain HTTP, in either mode', () => {
    for (const home of [tokenHome, oauthHome]) {
      const r = serve(home, ['--listen', `http://${REMOTE}:0`]);
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(
        `mcprt: refusing to listen on non-loopback host ${REMOTE}: plain HTTP is loopback-only; use https:// with --tls-cert and --tls-key and [serve.auth] mode = "oauth"`,
      );
    }
  });

  it('refuses HTTPS with the static token, before writing a token file', () => {
    const home = makeHome('');
    const r = serve(home, ['--listen', `https://${REMOTE}:0`, ...tls]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(
      `mcprt: refusing to listen on non-loopback host ${REMOTE}: the static token is loopback-only; beyond loopback set [serve.auth] mode = "oauth"`,
    );
    expect(() => readFileSync(join(home, 'serve.token'))).toThrow();
  });
});

describe('TLS usage errors', () => {
  it('names a missing --tls-cert or --tls-key, and TLS flags without https://', () => {
    const cases: [string[], string][] = [
      [
        ['--listen', 'https://127.0.0.1:0', '--tls-cert', files.cert],
        'serve: --listen https://… needs --tls-key FILE',
      ],
      [
        ['--listen', 'https://127.0.0.1:0', '--tls-key', files.key],
        'serve: --listen https://… needs --tls-cert FILE',
      ],
      [
        ['--listen', 'https://127.0.0.1:0'],
        'serve: --listen https://… needs --tls-cert FILE and --tls-key FILE',
      ],
      [
        ['--listen', 'http://127.0.0.1:0', ...tls],
        'serve: --tls-cert only applies to --listen https://…',
      ],
      [['--tls-key', files.key], 'serve: --tls-key only applies to --listen https://…'],
    ];
    for (const [args, message] of cases) {
      const r = serve(tokenHome, args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim()).toBe(`mcprt: ${message}`);
    }
  });

  it('refuses a token file in oauth mode', () => {
    const r = serve(oauthHome, [
      ...['--listen', 'https://127.0.0.1:0', '--http-token-file', files.token],
      ...tls,
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      'mcprt: serve: --http-token-file does not apply with [serve.auth] mode = "oauth" (callers present OAuth access tokens)',
    );
  });

  it('names an unreadable certificate or key file, and a key that does not match', () => {
    const missing = join(dir, 'missing.pem');
    const listen = ['--listen', 'https://127.0.0.1:0', '--http-token-file', files.token];
    let r = serve(tokenHome, [...listen, '--tls-cert', missing, '--tls-key', files.key]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(`mcprt: cannot read the TLS certificate ${missing} (ENOENT)`);
    r = serve(tokenHome, [...listen, '--tls-cert', files.cert, '--tls-key', missing]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(`mcprt: cannot read the TLS private key ${missing} (ENOENT)`);
    r = serve(tokenHome, [...listen, '--tls-cert', files.cert, '--tls-key', files.otherKey]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(
      `mcprt: the TLS certificate ${files.cert} and key ${files.otherKey} are not a usable pair: `,
    );
    expect(r.stderr).not.toContain('PRIVATE KEY');
  });
});
