/**
 * `type = "ssh"` environments: OpenSSH's own `ssh` client (so `~/.ssh/config`, agents and
 * ProxyJump work) in batch mode, with ONE control connection per environment. Stdio servers run
 * as multiplexed sessions (`cd`/exports/`exec` quoted for a POSIX shell), HTTP servers are reached
 * through unix sockets the master forwards from the remote side, and the remote host's own
 * `~/.mcprt/config.toml` is read through the same connection.
 *
 * Health is `disconnected` (not yet connected, or lost) → `connecting` → `ready`. Nothing connects
 * before first use. A lost connection is reported at once (the master is our child process); the
 * next use reconnects immediately, and failed attempts back off (1 s, 2 s, 4 s … 30 s) until a
 * reload resets the backoff.
 */

import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { backoffDelay, Listeners } from '@mcprt/base';

import type { SshEnvironmentConfig } from '../config/types.js';
import { makePrivateDirectory } from '../protectedPaths.js';
import { DeferredChild, REMOTE_PGID_ANNOUNCE } from './sshChild.js';
import {
  clientArgs,
  destinationLabel,
  forwardArgs,
  masterArgs,
  remoteKillScript,
  remoteLaunch,
} from './sshCommand.js';
import { SshEnvironmentError, sshStderrSummary } from './sshErrors.js';
import type { FetchLike } from './sshFetch.js';
import { socketFetch } from './sshFetch.js';
import { describeExit, MASTER_REMOTE_COMMAND, SshMaster } from './sshMaster.js';
import { runSsh } from './sshRun.js';
import type { MasterExit } from './sshMaster.js';
import {
  parseRemoteConfigOutput,
  parseRemoteRegistrations,
  REMOTE_CONFIG_SCRIPT,
} from './sshRemoteConfig.js';
import type {
  EnvironmentHealth,
  EnvironmentRegistrations,
  ExecutionEnvironment,
  HttpAccess,
  StdioLaunchSpec,
} from './types.js';

export const CONNECT_TIMEOUT_MS = 30_000;
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;
const CONTROL_TIMEOUT_MS = 15_000;
const REMOTE_CONFIG_MAX_BYTES = 4 * 1024 * 1024;
/** How long a session that ended with ssh's 255 waits to learn whether the master died too. */
const LOSS_SETTLE_MS = 1_000;

export interface SshEnvironmentOptions {
  /** The environment the `ssh` client runs with (SSH_AUTH_SOCK, HOME for ~/.ssh …). */
  readonly processEnv?: NodeJS.ProcessEnv;
}

export class SshEnvironment implements ExecutionEnvironment {
  readonly kind = 'ssh' as const;
  readonly id: string;
  readonly defaultCwd: string | null;
  readonly unavailableReason = null;
  /** `user@host:port` as configured, for messages. */
  readonly destination: string;
  private readonly processEnv: NodeJS.ProcessEnv;
  private readonly now: () => number;
  /** Every open session (thread) follows the health. */
  private readonly healthListeners = new Listeners<[EnvironmentHealth]>();
  private readonly tunnelFetch: FetchLike;
  private dir: string | null = null;
  private master: SshMaster | null = null;
  /** The master being connected, until it is ready or has failed. */
  private pending: SshMaster | null = null;
  private connecting: Promise<SshMaster> | null = null;
  private current: EnvironmentHealth = { state: 'disconnected', error: null, nextAttemptAt: null };
  private failures = 0;
  private forwards = new Map<string, Promise<string>>();
  private forwardCount = 0;
  private closed = false;

  constructor(
    readonly config: SshEnvironmentConfig,
    options: SshEnvironmentOptions = {},
  ) {
    this.id = config.id;
    this.defaultCwd = config.cwd;
    this.destination = destinationLabel(config);
    this.processEnv = options.processEnv ?? process.env;
    this.now = Date.now;
    this.tunnelFetch = socketFetch(
      (url) => this.forward(url),
      (url, error) =>
        error instanceof SshEnvironmentError
          ? error
          : new SshEnvironmentError(
              'http_failed',
              this.id,
              `${this.what} could not reach ${url.origin} from the remote side: ${messageOf(error)}`,
              { cause: error },
            ),
    );
  }

  private get what(): string {
    return `ssh environment \`${this.id}\` (${this.destination})`;
  }

  /** The private (0700) directory holding the control and forwarded sockets, once created. */
  get controlDirectory(): string | null {
    return this.dir;
  }

  health(): EnvironmentHealth {
    return this.current;
  }

  onHealthChange(listener: (health: EnvironmentHealth) => void): () => void {
    return this.healthListeners.add(listener);
  }

  resetBackoff(): void {
    this.failures = 0;
    if (this.current.nextAttemptAt !== null)
      this.setHealth({ ...this.current, nextAttemptAt: null });
  }

  /** The live master, connecting first when needed (shared by concurrent callers). */
  connect(): Promise<SshMaster> {
    if (this.closed) return Promise.reject(this.closedError());
    if (this.master?.alive && this.current.state === 'ready') return Promise.resolve(this.master);
    if (this.connecting !== null) return this.connecting;
    const retryAt = this.current.nextAttemptAt;
    if (retryAt !== null && this.now() < retryAt) {
      const seconds = Math.max(1, Math.ceil((retryAt - this.now()) / 1000));
      return Promise.reject(
        new SshEnvironmentError(
          'disconnected',
          this.id,
          `${this.what} is disconnected: ${this.current.error ?? 'not connected'}; next reconnect attempt in ${seconds} s`,
        ),
      );
    }
    const master = new SshMaster({
      environmentId: this.id,
      destination: this.destination,
      args: masterArgs(this.config, this.controlPath(), MASTER_REMOTE_COMMAND),
      controlPath: this.controlPath(),
      processEnv: this.processEnv,
      timeoutMs: CONNECT_TIMEOUT_MS,
    });
    this.pending = master;
    this.setHealth({ state: 'connecting', error: null, nextAttemptAt: null });
    const attempt: Promise<SshMaster> = master.ready
      .then(
        () => {
          if (this.closed) {
            void master.stop();
            throw this.closedError();
          }
          this.master = master;
          this.failures = 0;
          this.forwards = new Map();
          void master.exited.then((exit) => this.onMasterExit(master, exit));
          this.setHealth({ state: 'ready', error: null, nextAttemptAt: null });
          return master;
        },
        (error: unknown) => {
          this.failures += 1;
          const delay = backoffDelay(this.failures, {
            firstMs: BACKOFF_BASE_MS,
            maxMs: BACKOFF_MAX_MS,
          });
          if (!this.closed) {
            this.setHealth({
              state: 'disconnected',
              error: messageOf(error),
              nextAttemptAt: this.now() + delay,
            });
          }
          throw error;
        },
      )
      .finally(() => {
        if (this.connecting === attempt) this.connecting = null;
        if (this.pending === master) this.pending = null;
      });
    this.connecting = attempt;
    return attempt;
  }

  spawn(spec: StdioLaunchSpec): ChildProcessWithoutNullStreams {
    const child = new DeferredChild();
    const remote = remoteLaunch(spec);
    this.connect().then(
      (master) => {
        if (child.abandoned) return;
        // The session first announces its remote process group (see sshChild.ts).
        const command = `${REMOTE_PGID_ANNOUNCE}\n${remote.command}`;
        const real = spawn('ssh', clientArgs(this.config, this.controlPath(), command), {
          env: { ...this.processEnv },
          stdio: ['pipe', 'pipe', 'pipe'],
          detached: true,
          windowsHide: true,
        });
        child.attach(
          real,
          (code, _signal, stopping) =>
            stopping ? Promise.resolve(null) : this.explainExit(master, code),
          remote.stdinPreamble ?? undefined,
          (pgid, graceMs) => this.terminateRemoteGroup(pgid, graceMs),
        );
      },
      (error: unknown) => child.fail(error instanceof Error ? error : new Error(String(error))),
    );
    return child.asChildProcess();
  }

  http(): HttpAccess {
    return { kind: 'tunnel', fetch: this.tunnelFetch };
  }

  /**
   * End a session's remote process group through the connection (stopping the local `ssh`
   * client only closes the channel). False when it could not be confirmed gone, e.g. because
   * the connection is lost.
   */
  private async terminateRemoteGroup(pgid: number, graceMs: number): Promise<boolean> {
    if (this.closed || this.dir === null) return false;
    const run = await runSsh(
      this.processEnv,
      clientArgs(this.config, this.controlPath(), remoteKillScript(pgid, graceMs)),
      graceMs + 3_000,
    );
    return run.code === 0;
  }

  async readRegistrations(): Promise<EnvironmentRegistrations> {
    await this.connect();
    const what = `remote config of environment \`${this.id}\` (${this.destination})`;
    const run = await runSsh(
      this.processEnv,
      clientArgs(this.config, this.controlPath(), REMOTE_CONFIG_SCRIPT),
      CONTROL_TIMEOUT_MS * 2,
      REMOTE_CONFIG_MAX_BYTES,
    );
    const answer = run.code === 0 ? parseRemoteConfigOutput(run.stdout) : null;
    if (answer === null) {
      const why = run.error ?? (sshStderrSummary(run.stderr) || describeExit(run));
      throw new SshEnvironmentError('remote_config', this.id, `${what} could not be read: ${why}`);
    }
    const file = `ssh://${this.destination}${answer.path.startsWith('/') ? '' : '/'}${answer.path}`;
    if (answer.text === null) return { file, servers: [], invalidServers: [], warnings: [] };
    try {
      return parseRemoteRegistrations(this.id, file, answer.text, this.config.remoteTrust);
    } catch (error) {
      throw new SshEnvironmentError(
        'remote_config',
        this.id,
        `${what} is invalid: ${messageOf(error)}`,
        { cause: error },
      );
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const masters = [this.master, this.pending];
    this.master = null;
    this.pending = null;
    await Promise.all(masters.map((m) => m?.stop()));
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
  }

  private setHealth(next: EnvironmentHealth): void {
    this.current = next;
    this.healthListeners.emit(next);
  }

  private onMasterExit(master: SshMaster, exit: MasterExit): void {
    if (this.master !== master) return;
    this.master = null;
    this.forwards = new Map();
    if (this.closed) return;
    this.setHealth({
      state: 'disconnected',
      error: `ssh connection to environment \`${this.id}\` (${this.destination}) was lost: ${exit.detail || describeExit(exit)}`,
      nextAttemptAt: null,
    });
  }

  /**
   * A session that ended with ssh's own failure code (255) while its master died was cut off
   * by the lost connection: say so, naming the environment, in the server's stderr.
   */
  private async explainExit(master: SshMaster, code: number | null): Promise<string | null> {
    if (code !== 255) return null;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      master.exited,
      new Promise((resolve) => (timer = setTimeout(resolve, LOSS_SETTLE_MS))),
    ]);
    clearTimeout(timer);
    if (master.alive) return null;
    return `mcprt: ${this.current.error ?? `ssh connection to environment \`${this.id}\` was lost`}`;
  }

  /** A unix socket (in the private control directory) forwarded to the URL's host:port. */
  private async forward(url: URL): Promise<string> {
    await this.connect();
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const key = `${host}\u0000${port}`;
    const forwards = this.forwards;
    let socket = forwards.get(key);
    if (socket === undefined) {
      const path = join(this.controlDir(), `f${++this.forwardCount}`);
      socket = runSsh(
        this.processEnv,
        forwardArgs(this.config, this.controlPath(), path, host, port),
        CONTROL_TIMEOUT_MS,
      ).then((run) => {
        if (run.code === 0) return path;
        const why = run.error ?? (sshStderrSummary(run.stderr) || describeExit(run));
        throw new SshEnvironmentError(
          'forward_failed',
          this.id,
          `${this.what} could not forward ${host}:${port}: ${why}`,
        );
      });
      const created = socket;
      created.catch(() => {
        if (forwards.get(key) === created) forwards.delete(key);
      });
      forwards.set(key, created);
    }
    return socket;
  }

  private controlDir(): string {
    // mkdtemp creates the directory with mode 0700: the control and forwarded sockets inside
    // are reachable by this user only.
    // The control socket is a live login to the remote host: no sandboxed command may reach it.
    // Socket paths are limited to 108 bytes: room for `/cm` and forwarded sockets `/f<n>`.
    this.dir ??= makePrivateDirectory('mcprt-ssh-', { maxLength: 104, reserve: 8 });
    return this.dir;
  }

  private controlPath(): string {
    return join(this.controlDir(), 'cm');
  }

  private closedError(): SshEnvironmentError {
    return new SshEnvironmentError('closed', this.id, `${this.what} is closed`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
