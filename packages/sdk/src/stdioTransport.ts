/**
 * `StdioTransport`: spawns an app-server process and speaks JSONL on its stdin/stdout. Owns the
 * child's lifetime (it is killed on `close()`), stdout framing, and stderr lines (passed to a
 * callback, the last few kept for the error that reports an unexpected exit).
 */

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { LineFramer } from '@mcprt/base';

import { TransportBase } from './transportBase.js';

export interface StdioTransportOptions {
  /**
   * Executable to run. Default: `process.execPath` (Node). When neither `command` nor `args` is
   * given, the transport runs `node <@mcprt/cli>/dist/main.js app-server`.
   */
  readonly command?: string;
  /** Arguments. Default: `[<@mcprt/cli>/dist/main.js, 'app-server']` if `command` is not given, else `[]`. */
  readonly args?: readonly string[];
  /** Environment of the child; replaces (does not extend) `process.env`, like `child_process`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Working directory of the child. Default: the current one. */
  readonly cwd?: string;
  /** Called with each line the child writes to stderr. Default: stderr is read and dropped. */
  readonly onStderr?: (line: string) => void;
  /** Longest stdout line accepted, in bytes (default 64 MiB); longer lines are dropped and reported. */
  readonly maxLineBytes?: number;
  /**
   * Grace period between SIGTERM and SIGKILL on `close()`, in ms (default 5000: longer than the
   * app-server's own bounded shutdown, which ends its servers' process groups before it exits —
   * SIGKILLing it earlier could leave a stubborn server behind).
   */
  readonly killTimeoutMs?: number;
}

const DEFAULT_KILL_TIMEOUT_MS = 5000;
const STDERR_TAIL_LINES = 20;
const STDERR_MAX_LINE_BYTES = 64 * 1024;
const STDERR_TAIL_LINE_CHARS = 500;

/** Where the CLI's built entry lives: the installed `@mcprt/cli`, else this monorepo's copy. */
function resolveCliMain(): string {
  try {
    const pkg = createRequire(import.meta.url).resolve('@mcprt/cli/package.json');
    return join(dirname(pkg), 'dist', 'main.js');
  } catch {
    return fileURLToPath(new URL('../../cli/dist/main.js', import.meta.url));
  }
}

/** The command `StdioTransport` runs by default: `node <@mcprt/cli>/dist/main.js app-server`. */
export function defaultAppServerCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: [resolveCliMain(), 'app-server'] };
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal !== null ? `was killed by ${signal}` : `exited with code ${String(code)}`;
}

/** JSONL over a spawned process's stdio. Call `start()` before sending. */
export class StdioTransport extends TransportBase {
  readonly #options: StdioTransportOptions;
  readonly #stderrTail: string[] = [];
  #child: ChildProcessWithoutNullStreams | undefined;

  constructor(options: StdioTransportOptions = {}) {
    super();
    this.#options = options;
  }

  /** Process id of the child once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Spawn the child; rejects if it cannot be started (e.g. the command does not exist). */
  async start(): Promise<void> {
    if (this.state !== 'new') throw new Error('StdioTransport.start() may only be called once');
    const { command, args } = this.#commandLine();
    const { env, cwd } = this.#options;
    const child = spawn(command, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      ...(env !== undefined ? { env } : {}),
      ...(cwd !== undefined ? { cwd } : {}),
    });
    this.#child = child;
    this.state = 'open';
    this.#wire(child);
    await new Promise<void>((resolve, reject) => {
      const onSpawn = (): void => {
        child.off('error', onError);
        resolve();
      };
      const onError = (error: Error): void => {
        child.off('spawn', onSpawn);
        reject(new Error(`could not start ${command}: ${error.message}`, { cause: error }));
      };
      child.once('spawn', onSpawn);
      child.once('error', onError);
    });
  }

  send(message: object): void {
    this.assertOpen();
    this.#child?.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** End stdin, SIGTERM the child, SIGKILL it after `killTimeoutMs`; resolves once it is gone. */
  async close(): Promise<void> {
    const child = this.#child;
    if (this.state === 'new' || child === undefined) {
      this.finish(undefined);
      return this.ended;
    }
    if (this.state === 'open') {
      this.state = 'closing';
      child.stdin.end();
      child.kill('SIGTERM');
      const timer = setTimeout(
        () => child.kill('SIGKILL'),
        this.#options.killTimeoutMs ?? DEFAULT_KILL_TIMEOUT_MS,
      );
      timer.unref();
      void this.ended.then(() => clearTimeout(timer));
    }
    return this.ended;
  }

  #commandLine(): { command: string; args: readonly string[] } {
    const { command, args } = this.#options;
    if (command === undefined && args === undefined) {
      const fallback = defaultAppServerCommand();
      if (!existsSync(fallback.args[0] ?? '')) {
        throw new Error(
          `the mcprt CLI is not built (${String(fallback.args[0])} is missing); ` +
            'build it with `tsc -b` or pass `command`/`args`',
        );
      }
      return fallback;
    }
    return { command: command ?? process.execPath, args: args ?? [] };
  }

  #wire(child: ChildProcessWithoutNullStreams): void {
    const stdout = new LineFramer({
      onLine: (line) => this.receive(line),
      onOverflow: (bytes) =>
        this.errors.emit(new Error(`app-server sent a line of ${bytes} bytes or more; dropped it`)),
      ...(this.#options.maxLineBytes !== undefined
        ? { maxLineBytes: this.#options.maxLineBytes }
        : {}),
    });
    const stderr = new LineFramer({
      maxLineBytes: STDERR_MAX_LINE_BYTES,
      onLine: (line) => this.#onStderrLine(line),
      onOverflow: (bytes) => this.#onStderrLine(`[stderr line of ${bytes} bytes dropped]`),
    });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stdout.on('end', () => stdout.end());
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stderr.on('end', () => stderr.end());
    // EPIPE when the child died first: the 'close' event reports that.
    child.stdin.on('error', () => {});
    child.on('error', (error) => {
      // Spawn failures never produce 'close'; later errors (a failed kill) are left to 'close'.
      if (child.pid === undefined) this.finish(error);
    });
    child.on('close', (code, signal) => {
      if (this.state === 'closing') return this.finish(undefined);
      const tail = this.#stderrTail.length > 0 ? `; stderr:\n${this.#stderrTail.join('\n')}` : '';
      this.finish(new Error(`app-server process ${describeExit(code, signal)}${tail}`));
    });
  }

  #onStderrLine(line: string): void {
    this.#stderrTail.push(
      line.length > STDERR_TAIL_LINE_CHARS ? `${line.slice(0, STDERR_TAIL_LINE_CHARS)}…` : line,
    );
    if (this.#stderrTail.length > STDERR_TAIL_LINES) this.#stderrTail.shift();
    this.#options.onStderr?.(line);
  }
}
