// The HTTP targets of the gateway bench (bench/peers/http.mjs): how to start each one in front of
// the fixture stdio echo server (or, for the floor, the SDK echo server on HTTP itself), its URL,
// headers and the tool a client calls, and how to stop it and everything it started.
//   sdkhttp       bench/fixtures/sdk-http-echo.mjs: SDK McpServer on the SDK's Node HTTP transport
//   gw            `mcprt serve --listen http://127.0.0.1:0` over a home with s0 = the fixture
//   supergateway  supergateway --stdio "<fixture>" --outputTransport streamableHttp --stateful
//   sgless        the same in supergateway's default stateless mode (a fresh child per POST)
//   mcpproxy      mcp-proxy --server stream -- <fixture>
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { fixtureCommand } from '../lib/homes.mjs';
import { BENCH_DIR, CLI, PROFILE_ARGS, REPO_ROOT, TARGET_NODE_ARGS } from '../lib/paths.mjs';
import { descendants } from '../lib/proc.mjs';

const require = createRequire(join(REPO_ROOT, 'package.json'));

/** The installed version and bin script of an npm package of the repository. */
export function packageBin(name) {
  const manifest = require.resolve(`${name}/package.json`);
  const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin[name];
  return { version: pkg.version, script: join(dirname(manifest), bin) };
}

const TOKEN = 'mcprt-bench-http-token-0123456789';

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const shellQuote = (s) => `'${s.replaceAll("'", "'\\''")}'`;

/** Resolves once `port` accepts a TCP connection. */
async function waitForPort(port, child, stderr, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`exited with ${child.exitCode ?? child.signalCode}: ${stderr().slice(-800)}`);
    }
    const ok = await new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline)
      throw new Error(`port ${port} never opened: ${stderr().slice(-800)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Resolves with the first match of `pattern` in the child's `stream` output. */
function waitForLine(child, stream, pattern, stderr, timeoutMs = 60_000) {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`no ${pattern} within ${timeoutMs} ms: ${stderr().slice(-800)}`)),
      timeoutMs,
    );
    child[stream].on('data', (chunk) => {
      text += chunk;
      const m = pattern.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code ?? signal}: ${stderr().slice(-800)}`));
    });
  });
}

/**
 * Start `target` in front of `fixture` (the floor runs the SDK echo server itself). Returns
 * `{child, url, headers, tool, stop}`; `stop()` ends the target and every process it started.
 */
export async function startHttpTarget(target, { fixture, pidLog, home }) {
  const { command, args: fixtureArgs } = fixtureCommand(fixture, pidLog);
  const node = process.execPath;
  let argv;
  let port = null;
  let tool = 'echo';
  const headers = {};
  if (target === 'sdkhttp') {
    argv = [join(BENCH_DIR, 'fixtures', 'sdk-http-echo.mjs'), '--pid-log', pidLog];
  } else if (target === 'gw') {
    const tokenFile = join(home, 'bench.token');
    writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    argv = [
      ...TARGET_NODE_ARGS,
      CLI,
      '--home',
      home,
      'serve',
      '--listen',
      'http://127.0.0.1:0',
      '--http-token-file',
      tokenFile,
    ];
    headers.authorization = `Bearer ${TOKEN}`;
    tool = 's0__echo';
  } else if (target === 'supergateway' || target === 'sgless') {
    port = await freePort();
    argv = [
      packageBin('supergateway').script,
      '--stdio',
      [command, ...fixtureArgs].map(shellQuote).join(' '),
      '--outputTransport',
      'streamableHttp',
      ...(target === 'supergateway' ? ['--stateful'] : []),
      '--port',
      String(port),
      '--logLevel',
      'none',
    ];
  } else if (target === 'mcpproxy') {
    port = await freePort();
    argv = [
      packageBin('mcp-proxy').script,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--server',
      'stream',
      '--',
      command,
      ...fixtureArgs,
    ];
  } else throw new Error(`unknown HTTP target ${target}`);

  const child = spawn(node, [...PROFILE_ARGS, ...argv], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errText = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => (errText = (errText + chunk).slice(-4000)));
  child.stdout.resume();
  const stderr = () => errText;
  let url;
  try {
    if (target === 'sdkhttp') {
      const m = await waitForLine(child, 'stdout', /PORT (\d+)/, stderr);
      url = `http://127.0.0.1:${m[1]}/mcp`;
    } else if (target === 'gw') {
      const m = await waitForLine(child, 'stderr', /listening on (\S+)/, stderr);
      url = m[1];
    } else {
      await waitForPort(port, child, stderr);
      url = `http://127.0.0.1:${port}/mcp`;
    }
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }

  const stop = async () => {
    const started = descendants(child.pid);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    // supergateway starts its children detached (their own process groups): end any left.
    for (const pid of started) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  return { child, url, headers, tool, stop, stderr };
}
