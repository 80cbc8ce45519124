// Start-up is mostly module loading (docs/performance.md), so each `mcprt` command loads only what
// it uses: the built CLI runs under a module-resolution hook that logs every package it resolves,
// and the test checks that `app-server` over stdio answers `initialize` and starts a thread
// without the gateway, the MCP server SDK, `ws` or `jose`, and that `serve` loads the gateway but
// not the app-server — then that the lazily loaded parts still load when they are used.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

import { echoServer, makeHome, NODE, REPO_ROOT, tempDir } from '../helpers/fixtures.js';

const CLI = join(REPO_ROOT, 'packages/cli/dist/main.js');

/** A `--import` module registering a resolve hook that reports bare specifiers on stderr. */
function resolveLogger(): string {
  const dir = tempDir('mcprt-lazy-');
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `export async function resolve(specifier, context, next) {
  if (!specifier.startsWith('.') && !specifier.startsWith('node:') && !specifier.startsWith('file:') && !specifier.startsWith('/'))
    process.stderr.write('RESOLVED ' + specifier + '\\n');
  return next(specifier, context);
}\n`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  return register;
}

/** Run the CLI, feed it JSON-RPC lines one per answer, return the packages it resolved. */
async function resolvedBy(
  args: string[],
  requests: object[],
): Promise<{ packages: Set<string>; answers: unknown[] }> {
  const child = spawn(NODE, ['--import', resolveLogger(), CLI, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const answers: unknown[] = [];
  let buffered = '';
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer; stderr: ${stderr}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const message = JSON.parse(line) as { id?: unknown };
        if (message.id === undefined) continue;
        answers.push(message);
        const next = requests[answers.length];
        if (next === undefined) {
          clearTimeout(timer);
          resolve();
        } else child.stdin.write(`${JSON.stringify(next)}\n`);
      }
    });
  });
  child.stdin.write(`${JSON.stringify(requests[0])}\n`);
  await done;
  child.stdin.end();
  await new Promise((resolve) => child.once('exit', resolve));
  const packages = new Set(
    [...stderr.matchAll(/^RESOLVED (.+)$/gm)].map((m) => {
      const spec = m[1]!;
      const parts = spec.split('/');
      return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
    }),
  );
  return { packages, answers };
}

describe('each command loads only the modules it uses', () => {
  it('app-server over stdio: no gateway, MCP server SDK, ws or jose', async () => {
    const home = makeHome(echoServer('mcp_servers.echo', 'echo'));
    const { packages, answers } = await resolvedBy(
      ['--home', home, 'app-server'],
      [
        { id: 1, method: 'initialize', params: { clientInfo: { name: 't', version: '1' } } },
        { id: 2, method: 'thread/start', params: { cwd: home } },
      ],
    );
    expect(answers).toHaveLength(2);
    expect((answers[1] as { result?: { thread?: unknown } }).result?.thread).toBeDefined();
    // The hook sees the packages the app-server does load…
    expect(packages).toContain('@mcprt/app-server');
    expect(packages).toContain('@mcprt/runtime');
    // …and not these.
    for (const absent of ['@mcprt/gateway', '@modelcontextprotocol/server', 'ws', 'jose']) {
      expect(packages, absent).not.toContain(absent);
    }
  });

  it('serve: the gateway, without the app-server', async () => {
    const home = makeHome(echoServer('mcp_servers.echo', 'echo'));
    const { packages, answers } = await resolvedBy(
      ['--home', home, 'serve'],
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        },
      ],
    );
    expect(
      (answers[0] as { result?: { serverInfo?: { name?: string } } }).result?.serverInfo,
    ).toEqual(expect.objectContaining({ name: 'mcprt' }));
    expect(packages).toContain('@mcprt/gateway');
    expect(packages).not.toContain('@mcprt/app-server');
  });

  it('the WebSocket listener still loads ws when asked for it', async () => {
    const home = makeHome(echoServer('mcp_servers.echo', 'echo'));
    const child = spawn(NODE, [CLI, '--home', home, 'app-server', '--listen', 'ws://127.0.0.1:0'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    const listening = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not listening: ${stderr}`)), 20_000);
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const url = /ws:\/\/127\.0\.0\.1:\d+/.exec(stderr)?.[0];
        if (url) {
          clearTimeout(timer);
          resolve(url);
        }
      });
    });
    const url = await listening;
    // A plain HTTP request gets the listener's own answer: the ws server is up.
    const response = await fetch(url.replace('ws:', 'http:'));
    expect(response.status).toBe(426);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  });
});
