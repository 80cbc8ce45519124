// A real OpenSSH server on 127.0.0.1 for the soak's ssh environment — the approach of
// test/helpers/sshd.ts in plain JS: generated host and client keys, public-key authentication
// only, no PAM, a known_hosts file so host-key checking stays on, one free port whose sessions get
// their own HOME (`Match LocalPort` + `SetEnv`). `stop()` kills sshd and everything it started.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';

import { descendants } from '../lib/proc.mjs';

const SSHD_CANDIDATES = ['/usr/sbin/sshd', '/usr/local/sbin/sshd', '/sbin/sshd'];
const q = (s) => JSON.stringify(s);

/** The sshd binary, or null when openssh-server is not installed. */
export function findSshd() {
  return SSHD_CANDIDATES.find((p) => existsSync(p)) ?? null;
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Start sshd in `dir` (a fresh private directory); sessions get `remoteHome` as HOME. */
export async function startSshd(dir, remoteHome) {
  const binary = findSshd();
  if (binary === null) throw new Error(`sshd not found in ${SSHD_CANDIDATES.join(', ')}`);
  const keygen = (file) =>
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'mcprt-soak', '-f', file]);
  keygen(join(dir, 'host_ed25519'));
  keygen(join(dir, 'client_ed25519'));
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_ed25519.pub')));
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  const hostKey = readFileSync(join(dir, 'host_ed25519.pub'), 'utf8').trim();
  const knownHosts = join(dir, 'known_hosts');
  writeFileSync(knownHosts, `[127.0.0.1]:${port} ${hostKey}\n`);
  const config = [
    'ListenAddress 127.0.0.1',
    `Port ${port}`,
    `HostKey ${join(dir, 'host_ed25519')}`,
    `PidFile ${join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    'AuthenticationMethods publickey',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'UsePAM no',
    'StrictModes no',
    'PermitRootLogin prohibit-password',
    'AllowTcpForwarding yes',
    'AllowStreamLocalForwarding yes',
    'MaxSessions 64',
    'MaxStartups 64',
    'UseDNS no',
    'PrintMotd no',
    'LogLevel INFO',
    `Match LocalPort ${port}`,
    `  SetEnv "HOME=${remoteHome}"`,
  ];
  writeFileSync(join(dir, 'sshd_config'), `${config.join('\n')}\n`);
  const child = spawn(binary, ['-D', '-e', '-f', join(dir, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let log = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sshd did not listen in 10 s:\n${log}`)), 10e3);
    child.stderr.on('data', (chunk) => {
      log = (log + chunk).slice(-20_000);
      if (log.includes(`Server listening on 127.0.0.1 port ${port}.`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`sshd exited with ${code}:\n${log}`)));
  });
  child.removeAllListeners('exit');
  const clientKey = join(dir, 'client_ed25519');
  const sshOptions = ['-F', '/dev/null', '-o', `UserKnownHostsFile=${knownHosts}`];
  return {
    pid: child.pid,
    /** The `[environments.<id>]` table of an ssh environment on this sshd. */
    environmentToml: (id, cwd) =>
      [
        `[environments.${id}]`,
        'type = "ssh"',
        'host = "127.0.0.1"',
        `port = ${port}`,
        `user = ${q(userInfo().username)}`,
        `identity_file = ${q(clientKey)}`,
        `ssh_options = [${[...sshOptions, '-o', 'GlobalKnownHostsFile=/dev/null'].map(q).join(', ')}]`,
        `cwd = ${q(cwd)}`,
        '',
      ].join('\n'),
    /** Kill sshd and every process it started (children first); remove its directory. */
    stop() {
      for (const pid of [...descendants(child.pid).reverse(), child.pid]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
