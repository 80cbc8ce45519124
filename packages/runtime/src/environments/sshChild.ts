/**
 * A child process whose real process starts later. `ExecutionEnvironment.spawn` is synchronous,
 * but an ssh environment must first bring up its control connection. This object is returned at
 * once and behaves like a `ChildProcess` to the stdio transport: it emits `spawn` when the
 * multiplexed `ssh` client has started, or `error` (with the environment's connection error) when
 * the connection cannot be made. After the real process exits, the environment may add one line
 * to its stderr (why the session ended, naming the environment) before `exit` is emitted.
 */

import type { ChildProcess, ChildProcessWithoutNullStreams } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';

/**
 * Called when the real process has exited; may return a line to append to its stderr.
 * `stopping` is true when its stdin had been closed first (the transport stopping the server).
 */
export type ExitExplainer = (
  code: number | null,
  signal: NodeJS.Signals | null,
  stopping: boolean,
) => Promise<string | null>;

export class DeferredChild extends EventEmitter {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  pid: number | undefined = undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  private real: ChildProcess | null = null;
  private settled = false;
  private stdinEnded = false;

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
  attach(real: ChildProcessWithoutNullStreams, explain: ExitExplainer, preamble?: string): void {
    this.settled = true;
    this.real = real;
    real.stdin.on('error', (error) => this.stdin.destroy(error));
    if (preamble !== undefined) real.stdin.write(preamble);
    this.stdin.pipe(real.stdin);
    real.stdout.pipe(this.stdout);
    real.stderr.pipe(this.stderr, { end: false });
    real.once('spawn', () => {
      this.pid = real.pid;
      this.emit('spawn');
    });
    real.on('error', (error) => this.emit('error', error));
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    const exited = new Promise<void>((resolve) =>
      real.once('exit', (code, signal) => {
        exit = { code, signal };
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
