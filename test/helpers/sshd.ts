/**
 * A real OpenSSH server for tests: `sshd` on 127.0.0.1 (free ports), run as the current user
 * (root in CI) from a generated `sshd_config` in a temp dir — generated host and client keys
 * (`ssh-keygen`), public-key authentication only, no PAM, `AuthorizedKeysFile` in the temp dir,
 * `StrictModes no`, a `PidFile`. The client side gets a `known_hosts` file with the host key, so
 * host-key checking stays on.
 *
 * One sshd can listen on several ports; each listener gives its sessions their own `HOME` (and
 * extra variables) through `Match LocalPort` + `SetEnv`, which sshd applies after its own
 * defaults. That is how two ssh environments against the same sshd get different home directories
 * (a client's `SetEnv HOME=…` would be overridden by sshd).
 *
 * `stop()` takes the "host" down: it kills the listener and every process it started (each
 * connection's sshd and the sessions under it), so clients see their connection drop; `start()`
 * brings it back on the same ports with the same keys.
 */

import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';

import { arr, q, tempDir } from './fixtures.js';

const SSHD_CANDIDATES = ['/usr/sbin/sshd', '/usr/local/sbin/sshd', '/sbin/sshd'];

export interface SshdListener {
  /** HOME of sessions that connect to this port. */
  readonly home: string;
  /** More variables sshd sets for sessions on this port. */
  readonly env?: Readonly<Record<string, string>>;
}

export interface SshEnvironmentTomlOptions {
  readonly cwd?: string;
  /** Extra `ssh_options` after the harness's own (known_hosts, no user config). */
  readonly sshOptions?: readonly string[];
  /** Extra TOML lines for the environment table. */
  readonly extra?: string;
}

export class Sshd {
  private child: ChildProcess | null = null;
  private log = '';

  private constructor(
    readonly dir: string,
    readonly ports: readonly number[],
    readonly clientKey: string,
    readonly knownHosts: string,
    private readonly binary: string,
  ) {}

  /** Generate keys and config, and start sshd with one port per listener. */
  static async start(listeners: readonly SshdListener[]): Promise<Sshd> {
    const binary = SSHD_CANDIDATES.find((p) => existsSync(p));
    if (binary === undefined) {
      throw new Error(
        `sshd not found (looked in ${SSHD_CANDIDATES.join(', ')}): install Debian's openssh-server (npm test does: scripts/setup-system.mjs)`,
      );
    }
    const dir = tempDir('mcprt-sshd-');
    const keygen = (file: string) =>
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'mcprt-test', '-f', file]);
    keygen(join(dir, 'host_ed25519'));
    keygen(join(dir, 'client_ed25519'));
    writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_ed25519.pub')));
    // sshd running as root insists on its privilege-separation directory.
    if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });

    const ports = await Promise.all(listeners.map(() => freePort()));
    const hostKey = readFileSync(join(dir, 'host_ed25519.pub'), 'utf8').trim();
    const knownHosts = join(dir, 'known_hosts');
    writeFileSync(knownHosts, ports.map((p) => `[127.0.0.1]:${p} ${hostKey}\n`).join(''));
    writeFileSync(join(dir, 'sshd_config'), sshdConfig(dir, ports, listeners));

    const sshd = new Sshd(dir, ports, join(dir, 'client_ed25519'), knownHosts, binary);
    await sshd.start();
    return sshd;
  }

  /** The user sessions log in as (the current user). */
  get user(): string {
    return userInfo().username;
  }

  /** `ssh_options` that make the client hermetic: no user/system ssh config, our known_hosts. */
  get sshOptions(): string[] {
    return [
      '-F',
      '/dev/null',
      '-o',
      `UserKnownHostsFile=${this.knownHosts}`,
      '-o',
      'GlobalKnownHostsFile=/dev/null',
    ];
  }

  /** A `[environments.<id>]` table for the listener at `index`. */
  environmentToml(id: string, index: number, options: SshEnvironmentTomlOptions = {}): string {
    return [
      `[environments.${id}]`,
      'type = "ssh"',
      'host = "127.0.0.1"',
      `port = ${this.ports[index]}`,
      `user = ${q(this.user)}`,
      `identity_file = ${q(this.clientKey)}`,
      `ssh_options = ${arr([...this.sshOptions, ...(options.sshOptions ?? [])])}`,
      ...(options.cwd !== undefined ? [`cwd = ${q(options.cwd)}`] : []),
      options.extra ?? '',
      '',
    ].join('\n');
  }

  /** sshd's log so far (LogLevel VERBOSE). */
  get logText(): string {
    return this.log;
  }

  /** How many logins sshd accepted so far (one per ssh connection). */
  acceptedLogins(): number {
    return this.log.split('\n').filter((l) => l.includes('Accepted publickey for')).length;
  }

  /** Start (again) on the same ports; resolves when every port listens. */
  async start(): Promise<void> {
    if (this.child !== null) throw new Error('sshd is already running');
    const child = spawn(this.binary, ['-D', '-e', '-f', join(this.dir, 'sshd_config')], {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    this.child = child;
    const waiting = new Set(this.ports);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`sshd did not start listening in 10 s:\n${this.log}`)),
        10_000,
      );
      child.stderr!.on('data', (chunk: Buffer) => {
        this.log += chunk.toString();
        for (const port of [...waiting]) {
          if (this.log.includes(`Server listening on 127.0.0.1 port ${port}.`))
            waiting.delete(port);
        }
        if (waiting.size === 0) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`sshd exited with code ${code} before listening:\n${this.log}`));
      });
    });
  }

  /** Take the host down: kill sshd and every process it started (by pid, children first). */
  async stop(): Promise<void> {
    const child = this.child;
    if (child === null || child.pid === undefined) return;
    this.child = null;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    for (const pid of [...descendants(child.pid).reverse(), child.pid]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await exited;
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function sshdConfig(dir: string, ports: readonly number[], listeners: readonly SshdListener[]) {
  const lines = [
    'ListenAddress 127.0.0.1',
    ...ports.map((p) => `Port ${p}`),
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
    'LogLevel VERBOSE',
  ];
  listeners.forEach((listener, i) => {
    const vars = { HOME: listener.home, ...listener.env };
    lines.push(`Match LocalPort ${ports[i]}`);
    lines.push(
      `  SetEnv ${Object.entries(vars)
        .map(([k, v]) => `"${k}=${v}"`)
        .join(' ')}`,
    );
  });
  return `${lines.join('\n')}\n`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Every process below `root` (from /proc), parents before children. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const child of children.get(pid) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}
