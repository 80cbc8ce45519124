/**
 * Finding 7 of issue #14: the app-server's generated token is written to a new file (opened
 * exclusively, mode 0600) that is then renamed into place — never through a symlink or into an
 * inode another path shares; a `--home` that other users can write or that another user owns is
 * refused, and so is a `--ws-token-file` that others can write or read or that another user
 * owns. Every refusal is one clear line, exit 1, and nothing is started.
 */

import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  linkSync,
  lstatSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { makeHome, NODE, REPO_ROOT, tempDir } from '../helpers/fixtures.js';
import { CLI } from '../helpers/rpcClient.js';
import { startWsAppServer } from './helpers.js';

const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

function mcprt(args: string[]) {
  return spawnSync(NODE, [CLI, ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 30_000 });
}

/** Run the app-server until it is listening or exits; returns how it ended or its token file. */
async function listenOnce(home: string, args: string[] = []) {
  const child = spawn(
    NODE,
    [CLI, '--home', home, 'app-server', '--listen', 'ws://127.0.0.1:0', ...args],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes('listening on')) child.kill('SIGTERM');
    });
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

describe('the generated app-server token', () => {
  it('replaces a symlink instead of writing through it', async () => {
    const home = makeHome('');
    const victim = join(tempDir(), 'victim');
    writeFileSync(victim, 'do not overwrite\n');
    symlinkSync(victim, join(home, 'app-server.token'));
    const server = await startWsAppServer(home);
    try {
      expect(readFileSync(victim, 'utf8')).toBe('do not overwrite\n');
      const token = lstatSync(join(home, 'app-server.token'));
      expect(token.isFile()).toBe(true);
      expect(token.mode & 0o777).toBe(0o600);
      expect(readFileSync(join(home, 'app-server.token'), 'utf8').trim()).toBe(server.token);
    } finally {
      await server.stop();
    }
  });

  it('never writes into an inode another path shares (a hard link keeps its old content)', async () => {
    const home = makeHome('');
    const other = join(tempDir(), 'other');
    writeFileSync(other, 'old token\n', { mode: 0o644 });
    linkSync(other, join(home, 'app-server.token'));
    const server = await startWsAppServer(home);
    try {
      expect(readFileSync(other, 'utf8')).toBe('old token\n');
      expect(lstatSync(join(home, 'app-server.token')).mode & 0o777).toBe(0o600);
    } finally {
      await server.stop();
    }
  });
});

describe('unsafe homes and token files are refused', () => {
  it('a group- or world-writable --home', () => {
    const home = makeHome('');
    chmodSync(home, 0o777);
    const r = mcprt(['--home', home, 'status']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `mcprt: refusing to use the mcprt home ${home}: other users can write to it (mode 0777); run \`chmod go-w ${home}\`\n`,
    );
    chmodSync(home, 0o775);
    expect(mcprt(['--home', home, 'mcp', 'list']).stderr).toMatch(
      /other users can write to it \(mode 0775\)/,
    );
  });

  it.runIf(isRoot)('a --home owned by another user', () => {
    const home = makeHome('');
    chownSync(home, NOBODY, NOBODY);
    const r = mcprt(['--home', home, 'status']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `mcprt: refusing to use the mcprt home ${home}: it is owned by uid ${NOBODY}, not by you (uid 0)\n`,
    );
  });

  it('a --ws-token-file others can write or read', async () => {
    const file = join(tempDir(), 'ws.token');
    writeFileSync(file, 'a-long-enough-token-value\n', { mode: 0o666 });
    chmodSync(file, 0o666);
    const writable = await listenOnce(makeHome(''), ['--ws-token-file', file]);
    expect(writable.code).toBe(1);
    expect(writable.stderr).toBe(
      `mcprt: refusing to use the --ws-token-file ${file}: other users can read or write it (mode 0666); run \`chmod 600 ${file}\`\n`,
    );
    chmodSync(file, 0o644);
    const readable = await listenOnce(makeHome(''), ['--ws-token-file', file]);
    expect(readable.code).toBe(1);
    expect(readable.stderr).toMatch(/other users can read or write it \(mode 0644\)/);
    chmodSync(file, 0o600);
    const ok = await listenOnce(makeHome(''), ['--ws-token-file', file]);
    expect(ok.stderr).toContain('listening on ws://127.0.0.1:');
  });

  it.runIf(isRoot)('a --ws-token-file owned by another user', async () => {
    const file = join(tempDir(), 'ws.token');
    writeFileSync(file, 'a-long-enough-token-value\n', { mode: 0o600 });
    chownSync(file, NOBODY, NOBODY);
    const r = await listenOnce(makeHome(''), ['--ws-token-file', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `mcprt: refusing to use the --ws-token-file ${file}: it is owned by uid ${NOBODY}, not by you (uid 0)\n`,
    );
  });
});
