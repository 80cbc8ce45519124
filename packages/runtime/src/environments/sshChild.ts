/**
 * A child process whose real process starts later. `ExecutionEnvironment.spawn` is synchronous,
 * but an ssh environment must first bring up its control connection. This object is returned at
 * once and behaves like a `ChildProcess` to the stdio transport: it emits `spawn` when the
 * multiplexed `ssh` client has started, or `error` (with the environment's connection error) when
 * the connection cannot be made. After the real process exits, the environment may add one line
 * to its stderr (why the session ended, naming the environment) before `exit` is emitted.
 *
 * The remote side announces its process group on stderr first (`__mcprt_pgid=N`, a line that is
 * taken out of the stderr stream): killing the local `ssh` client only closes the channel, and a
 * server that ignores stdin EOF would live on, so shutdown also ends that group remotely
 * (`terminateRemote`, through the environment's connection).
 */

import type { ChildProcess, ChildProcessWithoutNullStreams } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';

import type { RemoteProcessOwner } from './types.js';

/** The shell line that announces the remote process group (sshd makes each session its leader). */
export const REMOTE_PGID_ANNOUNCE = `printf '__mcprt_pgid=%s\\n' "$$" >&2`;
const PGID_LINE = /^__mcprt_pgid=(\d+)$/;
/** Stderr text searched for the announcement before it is passed through as it comes. */
const PGID_SEARCH_BYTES = 8192;
/** How long shutdown waits for the announcement of a session that has only just started. */
const PGID_WAIT_MS = 1000;

/** Ends the remote process group `pgid` (SIGTERM, SIGKILL after `graceMs`); true once gone. */
export type RemoteTerminator = (pgid: number, graceMs: number) => Promise<boolean>;

/**
 * Called when the real process has exited; may return a line to append to its stderr.
 * `stopping` is true when its stdin had been closed first (the transport stopping the server).
 */
export type ExitExplainer = (
  code: number | null,
  signal: NodeJS.Signals | null,
  stopping: boolean,
) => Promise<string | null>;

export class DeferredChild extends EventEmitter implements RemoteProcessOwner {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  pid: number | undefined = undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  private real: ChildProcess | null = null;
  private settled = false;
  private stdinEnded = false;
  private exited = false;
  private remotePgid: number | null = null;
  private terminator: RemoteTerminator | null = null;
  private readonly pgidAnnounced = new EventEmitter();

  constructor() {
    super();
    // The transport ends stdin to stop a server; before the real process exists that cancels.
    this.stdin.once('finish', () => {
      this.stdinEnded = true;
      if (this.real === null && !this.settled) this.cancel();
    });
  }

  /** The typed view the stdio transport expects. */
  asChildProcess(): ChildProcessWithoutNullStreams {
    return this as unknown as ChildProcessWithoutNullStreams;
  }

  /** True once the start was cancelled or failed (the caller must not start the process). */
  get abandoned(): boolean {
    return this.settled && this.real === null;
  }

  /** The start failed: report it the way a failed `spawn` does. */
  fail(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.emit('error', error);
    this.finish(null, 'SIGTERM');
  }

  /**
   * The real process has been spawned: wire its streams and lifecycle to this object. `preamble`
   * is written to its stdin before anything the caller writes.
   */
  attach(
    real: ChildProcessWithoutNullStreams,
    explain: ExitExplainer,
    preamble?: string,
    terminator?: RemoteTerminator,
  ): void {
    this.settled = true;
    this.real = real;
    this.terminator = terminator ?? null;
    real.stdin.on('error', (error) => this.stdin.destroy(error));
    if (preamble !== undefined) real.stdin.write(preamble);
    this.stdin.pipe(real.stdin);
    real.stdout.pipe(this.stdout);
    this.readStderr(real);
    real.once('spawn', () => {
      this.pid = real.pid;
      this.emit('spawn');
    });
    real.on('error', (error) => this.emit('error', error));
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    const exited = new Promise<void>((resolve) =>
      real.once('exit', (code, signal) => {
        exit = { code, signal };
        this.exited = true;
        this.pgidAnnounced.emit('done');
        resolve();
      }),
    );
    const closed = new Promise<void>((resolve) => real.once('close', () => resolve()));
    void (async () => {
      await exited;
      const line = await explain(exit!.code, exit!.signal, this.stdinEnded).catch(() => null);
      await closed;
      if (line !== null) this.stderr.write(`${line}\n`);
      this.stderr.end();
      this.finish(exit!.code, exit!.signal);
    })();
  }

  /**
   * End the remote process group the session announced (see the header); true when there is
   * none, or once it is gone.
   */
  async terminateRemote(graceMs: number): Promise<boolean> {
    if (this.remotePgid === null && this.real !== null && !this.exited) {
      // Just started: the announcement may still be on its way.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, PGID_WAIT_MS);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.pgidAnnounced.once('done', done);
      });
    }
    if (this.remotePgid === null || this.terminator === null) return true;
    return this.terminator(this.remotePgid, graceMs);
  }

  /** The real stderr, passed through, without the process-group announcement. */
  private readStderr(real: ChildProcessWithoutNullStreams): void {
    let pending = '';
    let searching = true;
    const pass = (text: string) => {
      if (text !== '') this.stderr.write(Buffer.from(text, 'latin1'));
    };
    real.stderr.on('data', (chunk: Buffer) => {
      if (!searching) return void this.stderr.write(chunk);
      pending += chunk.toString('latin1');
      for (let nl = pending.indexOf('\n'); searching && nl >= 0; nl = pending.indexOf('\n')) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        const announced = PGID_LINE.exec(line);
        if (announced) {
          searching = false;
          this.remotePgid = Number(announced[1]);
          this.pgidAnnounced.emit('done');
        } else pass(`${line}\n`);
      }
      if (!searching || pending.length > PGID_SEARCH_BYTES) {
        searching = false;
        pass(pending);
        pending = '';
      }
    });
    real.stderr.once('end', () => {
      pass(pending);
      pending = '';
    });
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (this.real !== null) return this.real.kill(signal);
    this.cancel();
    return true;
  }

  private cancel(): void {
    this.fail(new Error('cancelled before the ssh connection was ready'));
  }

  private finish(code: number | null, signal: NodeJS.Signals | null): void {
    this.exitCode = code;
    this.signalCode = signal;
    if (this.real === null) {
      this.stdout.end();
      this.stderr.end();
    }
    this.emit('exit', code, signal);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      this.emit('close', code, signal);
    };
    if (this.stdout.readableEnded || this.real === null) setImmediate(close);
    else this.stdout.once('end', close).once('close', close);
  }
}
