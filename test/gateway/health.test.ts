/**
 * `/healthz`, `/readyz` and `/metrics` on `mcprt serve --listen http://…`: health is public;
 * readiness and metrics need the MCP bearer token unless `[serve] metrics_public = true`;
 * readiness waits for every `required = true` registration and, when one fails, answers 503
 * naming it by server, environment and state — never its command, arguments, environment values
 * or error text.
 */

import { request } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  echoServer,
  makeHome,
  NODE,
  q,
  shExecEnvironment,
  SILENT_SERVER,
  tempDir,
} from '../helpers/fixtures.js';
import type { HttpGateway } from './helpers.js';
import { httpGateway, TOKEN } from './helpers.js';

const SECRET = 'sk-live-9f8e7d6c5b4a-do-not-leak';
const MISSING = '/nonexistent/mcprt-health-missing-server';

interface Answer {
  readonly status: number;
  readonly type: string | null;
  readonly body: string;
}

async function get(base: string, path: string, token?: string, method = 'GET'): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: await response.text(),
  };
}

/** The listener's origin (`http://127.0.0.1:PORT`) from its `/mcp` URL. */
const originOf = (gateway: HttpGateway) => new URL(gateway.url).origin;

/** Poll `/readyz` until `done` holds for an answer. */
async function readyzUntil(
  base: string,
  done: (answer: Answer) => boolean,
  token: string | undefined = TOKEN,
): Promise<Answer> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await get(base, '/readyz', token);
    if (done(answer) || Date.now() > deadline) {
      expect(done(answer), `last /readyz: ${answer.status} ${answer.body}`).toBe(true);
      return answer;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a gateway whose required server fails', () => {
  const cwd = tempDir('mcprt-health-cwd-');
  const home = makeHome(
    echoServer('mcp_servers.echo', 'echo', 'required = true') +
      shExecEnvironment('prod', cwd) +
      `[environments.prod.mcp_servers.billing]\ncommand = ${q(MISSING)}\nargs = [${q(`--api-key=${SECRET}`)}]\nrequired = true\nenv = { BILLING_TOKEN = ${q(SECRET)} }\n` +
      // Not required: failing does not matter to readiness.
      `[mcp_servers.optional]\ncommand = ${q(MISSING)}\n`,
  );
  let gateway: HttpGateway;
  let base: string;
  beforeAll(async () => {
    gateway = await httpGateway(home);
    base = originOf(gateway);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('answers /healthz without a token, for GET and HEAD only', async () => {
    expect(await get(base, '/healthz')).toMatchObject({ status: 200, body: 'ok\n' });
    expect(await get(base, '/healthz', 'wrong-token-0123456789')).toMatchObject({ status: 200 });
    expect(await get(base, '/healthz', undefined, 'HEAD')).toMatchObject({ status: 200, body: '' });
    expect(await get(base, '/healthz', undefined, 'POST')).toMatchObject({ status: 405 });
  });

  it('asks for the token on /readyz and /metrics', async () => {
    for (const path of ['/readyz', '/metrics']) {
      expect((await get(base, path)).status, path).toBe(401);
      expect((await get(base, path, 'wrong-token-0123456789')).status, path).toBe(401);
    }
    expect((await get(base, '/metrics', TOKEN)).status).toBe(200);
  });

  it('is not ready, naming the failed required server and nothing secret', async () => {
    // Until the echo server is ready it is waited for too: wait for it to drop out.
    const answer = await readyzUntil(
      base,
      (a) => a.status === 503 && a.body.includes('failed') && !a.body.includes('echo'),
    );
    expect(answer.type).toBe('application/json');
    expect(JSON.parse(answer.body)).toEqual({
      ready: false,
      waiting: [{ server: 'billing', environment: 'prod', state: 'failed' }],
    });
    // The server did fail with an error that names the command (stderr says so)…
    expect(gateway.stderr()).toContain(MISSING);
    // …and none of it reaches the body.
    for (const leak of [SECRET, MISSING, 'nonexistent', 'BILLING_TOKEN', 'not found']) {
      expect(answer.body).not.toContain(leak);
    }
    const metrics = await get(base, '/metrics', TOKEN);
    expect(metrics.body).not.toContain(SECRET);
    expect(metrics.body).not.toContain(TOKEN);
  });

  it('answers HEAD on /readyz with the status and no body', async () => {
    expect(await get(base, '/readyz', TOKEN, 'HEAD')).toMatchObject({ status: 503, body: '' });
  });
});

describe('a gateway whose required servers all start', () => {
  const home = makeHome(
    echoServer('mcp_servers.echo', 'echo', 'required = true') +
      echoServer('mcp_servers.other', 'other', 'required = true') +
      // Never answers: still starting, but not required.
      `[mcp_servers.silent]\ncommand = ${q(NODE)}\nargs = [${q(SILENT_SERVER)}]\nstartup_timeout_sec = 600\n`,
  );
  let gateway: HttpGateway;
  beforeAll(async () => {
    gateway = await httpGateway(home);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('is ready once they are, whatever the others do', async () => {
    const answer = await readyzUntil(originOf(gateway), (a) => a.status === 200);
    expect(JSON.parse(answer.body)).toEqual({ ready: true });
  });
});

describe('a gateway without required servers', () => {
  const home = makeHome(
    '[serve]\nstartup_wait_sec = 3\n' +
      echoServer('mcp_servers.echo', 'echo') +
      `[mcp_servers.silent]\ncommand = ${q(NODE)}\nargs = [${q(SILENT_SERVER)}]\nstartup_timeout_sec = 600\n`,
  );
  let gateway: HttpGateway;
  beforeAll(async () => {
    gateway = await httpGateway(home);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('is ready once the startup wait is over, naming what still starts until then', async () => {
    const base = originOf(gateway);
    const started = Date.now();
    const first = await get(base, '/readyz', TOKEN);
    expect(first.status).toBe(503);
    expect(JSON.parse(first.body).waiting).toContainEqual({
      server: 'silent',
      environment: null,
      state: 'starting',
    });
    await readyzUntil(base, (a) => a.status === 200);
    expect(Date.now() - started).toBeGreaterThan(1_000);
  });
});

describe('metrics_public = true', () => {
  const home = makeHome(
    '[serve]\nmetrics_public = true\n' + echoServer('mcp_servers.echo', 'echo', 'required = true'),
  );
  let gateway: HttpGateway;
  beforeAll(async () => {
    gateway = await httpGateway(home);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('answers /readyz and /metrics without the token, but not /mcp', async () => {
    const base = originOf(gateway);
    await readyzUntil(base, (a) => a.status === 200, undefined);
    const metrics = await get(base, '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.type).toContain('text/plain');
    expect(metrics.body).toContain('mcprt_registrations{state="ready"} 1');
    const mcp = await fetch(gateway.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{}',
    });
    expect(mcp.status).toBe(401);
    expect((await get(base, '/elsewhere')).status).toBe(401);
  });

  it('needs the token again for a Host that is not this machine (DNS rebinding)', async () => {
    await readyzUntil(originOf(gateway), (a) => a.status === 200, undefined);
    const port = Number(new URL(gateway.url).port);
    const ask = (path: string, host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    for (const path of ['/metrics', '/readyz']) {
      const rebound = await ask(path, `attacker.example:${port}`);
      expect(rebound.status).toBe(401);
      expect(rebound.body).not.toContain('mcprt_');
      expect(rebound.body).not.toContain('echo');
      expect((await ask(path, `localhost:${port}`)).status).toBe(200);
    }
    expect((await ask('/healthz', `attacker.example:${port}`)).status).toBe(200);
  });
});
