// The soak's mcprt home and its gateway: config.toml with the soak server (bench/soak/fixtures)
// registered as `alpha` (2025-11-25) and `beta` (2026-07-28) in the implicit local environment
// (thread-wide), in an exec environment `box` and, unless `--no-ssh`, in an ssh environment
// `remote` on a real sshd; and `mcprt serve --listen http://127.0.0.1:PORT` started, SIGKILLed and
// started again on the same port and home (generation 1, 2, …), its stderr kept in the run folder.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { CLI } from '../lib/paths.mjs';

export const FIXTURE = new URL('./fixtures/soak-server.mjs', import.meta.url).pathname;
export const TOOL_TIMEOUT_SEC = 5;
const q = (s) => JSON.stringify(s);
const arr = (xs) => `[${xs.map(q).join(', ')}]`;

/** Every registration of the soak: `{server, env, era, label, tag}` (env null: thread-wide). */
export function registrations(tag, withSsh) {
  const out = [];
  for (const env of [null, 'box', ...(withSsh ? ['remote'] : [])]) {
    for (const [server, era] of [
      ['alpha', 'legacy'],
      ['beta', 'modern'],
    ]) {
      const label = env === null ? server : `${server}@${env}`;
      out.push({ server, env, era, label, tag: `${tag}:${env ?? 'local'}:${server}` });
    }
  }
  return out;
}

function serverTable(reg) {
  const table =
    reg.env === null
      ? `mcp_servers.${reg.server}`
      : `environments.${reg.env}.mcp_servers.${reg.server}`;
  const name = `${reg.server}-${reg.env ?? 'local'}`;
  return [
    `[${table}]`,
    `command = ${q(process.execPath)}`,
    `args = ${arr([FIXTURE, '--name', name, '--era', reg.era, '--tag', reg.tag])}`,
    `tool_timeout_sec = ${TOOL_TIMEOUT_SEC}`,
    'restart_backoff_sec = 0.2',
    '',
  ].join('\n');
}

/** Write `<dir>/home/config.toml`; returns the home. `sshd` is startSshd's handle or null. */
export function writeHome(dir, regs, sshd) {
  const home = join(dir, 'home');
  const cwd = join(dir, 'cwd');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  mkdirSync(cwd, { recursive: true });
  const parts = ['[history]\nmax_entries = 10000000\n'];
  for (const reg of regs.filter((r) => r.env === null)) parts.push(serverTable(reg));
  parts.push(
    `[environments.box]\ntype = "exec"\nprogram = "sh"\nargs = ["-c", "exec \\"$@\\"", "sh"]\ncwd = ${q(cwd)}\n`,
  );
  for (const reg of regs.filter((r) => r.env === 'box')) parts.push(serverTable(reg));
  if (sshd !== null) {
    parts.push(sshd.environmentToml('remote', cwd));
    for (const reg of regs.filter((r) => r.env === 'remote')) parts.push(serverTable(reg));
  }
  writeFileSync(join(home, 'config.toml'), parts.join('\n'));
  return home;
}

/** One gateway process; `port` 0 the first time, the same port after a restart. */
export async function startGateway({ dir, home, tokenFile, port, generation }) {
  const log = createWriteStream(join(dir, `gateway-${generation}.log`));
  const args = [CLI, '--home', home, 'serve', '--listen', `http://127.0.0.1:${port}`];
  const child = spawn(process.execPath, [...args, '--http-token-file', tokenFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let text = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`mcprt serve did not listen in 30 s: ${text}`)),
      30e3,
    );
    child.once('exit', (code, sig) => {
      clearTimeout(timer);
      reject(new Error(`mcprt serve exited (${code ?? sig}) before listening: ${text}`));
    });
    child.stderr.on('data', (chunk) => {
      log.write(chunk);
      if (text.length < 8192) text += chunk;
      const m = /listening on (\S+)/.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  exited.then(() => log.end());
  return {
    child,
    pid: child.pid,
    url,
    port: Number(new URL(url).port),
    generation,
    exited,
    startedAt: Date.now(),
  };
}

/** Start a gateway on `port`, retrying while the old listener's port is still taken. */
export async function restartGateway(options) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startGateway(options);
    } catch (error) {
      if (attempt >= 20 || !/EADDRINUSE|already in use/.test(String(error))) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

export function writeToken(dir, token) {
  const file = join(dir, 'serve.token');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return file;
}
