/**
 * MCP transport over a child process's stdin/stdout, spawned through an execution environment.
 * Unlike the SDK's own stdio transport it (1) lets the environment decide how to spawn (local,
 * exec prefix, ssh), (2) puts the child in its own process group and shuts the whole group down
 * (SIGTERM, then SIGKILL after a grace period), and `close()` resolves only once no process of the
 * group is left (nor of the remote group an ssh session started), and (3) keeps a bounded stderr
 * tail and the exit status for status and error messages. (4) A side channel for the tool-call
 * fast path (ADR 0021): `attach` lets it take its own responses off stdout before the SDK sees
 * them, send pre-serialised lines, and learn when the transport ends.
 */

import type { ChildProcessWithoutNullStreams } from 'node:child_process';

import { LineTail } from '@mcprt/base';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { serializeMessage } from '@modelcontextprotocol/client';

import type {
  ExecutionEnvironment,
  RemoteProcessOwner,
  StdioLaunchSpec,
} from '../environments/types.js';
import type { MessageClaimer } from './jsonlFramer.js';
import { JsonlFramer } from './jsonlFramer.js';
import {
  forgetProcessGroup,
  groupAlive,
  KILL_GRACE_MS,
  KILL_SETTLE_MS,
  signalGroup,
  terminateProcessGroup,
  trackProcessGroup,
  trackShutdown,
} from './processGroups.js';

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export class StdioProcessTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;

  readonly stderr = new LineTail();
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly framer: JsonlFramer;
  /** Why the transport failed on its own (message too large), if it did. */
  failure: Error | undefined;
  private exitInfo: ProcessExit | undefined;
  private spawnError: Error | undefined;
  private exited: Promise<void> = Promise.resolve();
  private closed = false;
  private groupGone = false;
  /** The fast path's end-of-transport hook (attach). */
  private onSideClose: (() => void) | undefined;

  constructor(
    private readonly environment: ExecutionEnvironment,
    private readonly spec: StdioLaunchSpec,
    maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
  ) {
    this.framer = new JsonlFramer(maxMessageBytes);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the process ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.exitInfo;
  }

  /** Resolves when the process has exited, or after `ms` if it is still running. */
  async waitForExit(ms: number): Promise<void> {
    if (this.exitInfo !== undefined || this.spawnError !== undefined || !this.child) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exited, new Promise((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }

  /** The spawn failure (e.g. ENOENT), if the process never started. */
  get startError(): Error | undefined {
    return this.spawnError;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('StdioProcessTransport already started');
    const child = this.environment.spawn(this.spec);
    this.child = child;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        // The leader is reaped: if nothing else was in its group, the group is gone (and its id
        // free for reuse, so it must not be signalled any more).
        if (child.pid !== undefined && !groupAlive(child.pid)) {
          this.groupGone = true;
          forgetProcessGroup(child.pid);
        }
        resolve();
        // Output still in the pipe arrives before 'close'; a grandchild holding the pipe open
        // must not keep the connection alive, so finish shortly after exit regardless.
        setTimeout(() => this.finish(), 50).unref();
      });
    });
    child.once('close', () => this.finish());
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => {
        if (child.pid !== undefined) trackProcessGroup(child.pid);
        resolve();
      });
      child.once('error', (error) => {
        this.spawnError = error;
        reject(error);
        this.onerror?.(error);
        this.finish();
      });
    });
    child.on('error', (error) => this.onerror?.(error));
    child.stdin.on('error', (error) => this.onerror?.(error));
    child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    // A server that closes stdout but stays alive can never answer again: end the connection
    // (and, through close(), its process group) instead of waiting on it forever.
    child.stdout.once('end', () => {
      // A process that is exiting closes stdout first: give its exit a moment to arrive.
      setTimeout(() => {
        if (this.exitInfo !== undefined || this.closed) return;
        this.failure ??= new Error('the server closed its stdout');
        this.finish();
      }, 100).unref();
    });
    child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.sendLine(serializeMessage(message));
  }

  /** Write one serialised message (a JSON text ending in `\n`); as `send`. */
  sendLine(line: string): Promise<void> {
    return this.writeLine(line) ?? Promise.resolve();
  }

  /**
   * `sendLine` that makes no promise when the pipe takes the line at once (undefined then): the
   * tool-call fast path writes a line per call (ADR 0023).
   */
  writeLine(line: string): Promise<void> | undefined {
    const child = this.child;
    if (!child || this.closed || !child.stdin.writable) {
      return Promise.reject(new Error('Not connected'));
    }
    if (child.stdin.write(line)) return undefined;
    return new Promise<void>((resolve, reject) => {
      child.stdin.once('drain', resolve).once('error', reject);
    });
  }

  /**
   * The fast path's side channel: `claim` sees every parsed line first (what it claims never
   * reaches the SDK), `closed` runs once when the transport ends (after the SDK's `onclose`).
   */
  attach(claim: MessageClaimer, closed: () => void): void {
    this.framer.claim = claim;
    this.onSideClose = closed;
  }

  /** True once the transport has ended (no more messages either way). */
  get ended(): boolean {
    return this.closed;
  }

  /**
   * Stop the server: end its stdin, SIGTERM its process group (and the remote one an ssh session
   * started), SIGKILL what is left after the grace period, and resolve once all of it is gone —
   * also when the leader had exited already but left processes behind. Bounded: grace + 1 s.
   */
  async close(): Promise<void> {
    const child = this.child;
    if (child && this.spawnError === undefined) {
      if (this.exitInfo === undefined) child.stdin.end();
      const remote = child as Partial<RemoteProcessOwner>;
      const pid = child.pid;
      // A child that does not lead a group (an environment that did not detach it) alone.
      const leaderOnly = pid !== undefined && this.exitInfo === undefined && !groupAlive(pid);
      await Promise.all([
        pid === undefined || this.groupGone
          ? undefined
          : leaderOnly
            ? this.terminateLeader()
            : terminateProcessGroup(pid),
        remote.terminateRemote ? trackShutdown(remote.terminateRemote(KILL_GRACE_MS)) : undefined,
        // The leader's exit event (its exit status, for messages) follows the group's end.
        this.waitForExit(KILL_GRACE_MS + KILL_SETTLE_MS),
      ]);
    }
    this.finish();
  }

  private async terminateLeader(): Promise<void> {
    this.child?.kill('SIGTERM');
    await this.waitForExit(KILL_GRACE_MS);
    if (this.exitInfo !== undefined) return;
    this.child?.kill('SIGKILL');
    await this.waitForExit(KILL_SETTLE_MS);
  }

  private onData(chunk: Buffer): void {
    let items;
    try {
      items = this.framer.push(chunk);
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.onerror?.(this.failure);
      if (this.child?.pid !== undefined) signalGroup(this.child.pid, 'SIGKILL');
      this.finish();
      return;
    }
    for (const item of items) {
      if (typeof item === 'function') item();
      else this.onmessage?.(item);
    }
  }

  /** Lines on stdout that were not JSON-RPC messages (skipped). */
  get skippedLines(): number {
    return this.framer.skippedLines;
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
    this.onSideClose?.();
  }
}
