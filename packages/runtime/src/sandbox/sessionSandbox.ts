/**
 * A session's sandbox authority: the thread's current sandbox state (the exact value the host
 * gave — kept by reference, never parsed, copied or rebuilt) and the launcher setting. A tool
 * call captures the authority when it is issued, so a state change while the call waits for its
 * server does not leak into it, and turns the capture into the call's `_meta` and arguments.
 */

import type { SandboxLauncherSetting, ServerConfig } from '../config/types.js';
import { advertisesSandboxState, isObject } from './keys.js';
import { resolveLauncher } from './launcher.js';
import { buildCallMeta, sanitizeArguments } from './meta.js';

/** What the sandbox contract needs to know about the server a call goes to. */
export interface SandboxTarget {
  /** The server's `initialize` capabilities. */
  readonly capabilities: unknown;
  /** A stdio server running in the `local` environment (the only kind given a launcher). */
  readonly localStdio: boolean;
}

/** The sandbox view of a registration: its capabilities and whether it is local stdio. */
export function sandboxTarget(config: ServerConfig, capabilities: unknown): SandboxTarget {
  return {
    capabilities,
    localStdio: config.transport.type === 'stdio' && config.executionEnvironmentId === 'local',
  };
}

/**
 * A host's own authority for one call (e.g. what `mcprt serve` received from its client): the
 * state, forwarded as is, and optionally the absolute path of the host's launcher, which is
 * probed before any local stdio server receives it. Without `launcher` the configured launcher
 * setting applies; a given launcher that fails its probe means no launcher, never another one.
 */
export interface SandboxAuthority {
  readonly state: unknown;
  readonly launcher?: string;
}

/** What `CallAuthority.metaNow` returns when the launcher must be resolved first (`meta`). */
export const NEEDS_LAUNCHER: unique symbol = Symbol('needs launcher');

/** The authority of one issued call. */
export class CallAuthority {
  constructor(
    /** The thread's state when the call was issued; undefined when the thread has none. */
    readonly state: unknown,
    private readonly launcherSetting: SandboxLauncherSetting,
  ) {}

  /**
   * The call's `_meta`: client keys minus `codex/sandbox-*`, plus the thread's authority. A
   * non-object `_meta` cannot carry keys either way and is forwarded as is (Codex's rule); a
   * server then receives no authority and its launcher helpers fail closed.
   */
  async meta(target: SandboxTarget, clientMeta: unknown): Promise<unknown> {
    const now = this.metaNow(target, clientMeta);
    if (now !== NEEDS_LAUNCHER) return now;
    const launcher = await resolveLauncher(this.launcherSetting);
    return buildCallMeta(clientMeta as Record<string, unknown> | undefined, {
      state: this.state,
      launcher,
    });
  }

  /**
   * `meta` without waiting, or `NEEDS_LAUNCHER` when it needs the launcher resolved first (a
   * local stdio server that advertises the sandbox state, with a thread state): the tool-call
   * path then awaits nothing in the usual case.
   */
  metaNow(target: SandboxTarget, clientMeta: unknown): unknown {
    if (clientMeta !== undefined && !isObject(clientMeta)) return clientMeta;
    if (this.state === undefined || !advertisesSandboxState(target.capabilities)) {
      return buildCallMeta(clientMeta, null);
    }
    if (target.localStdio) return NEEDS_LAUNCHER;
    return buildCallMeta(clientMeta, { state: this.state, launcher: null });
  }

  /** Arguments with `codex/sandbox-*` keys removed from their `_meta`, if any. */
  arguments(args: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    return sanitizeArguments(args);
  }
}

export class SessionSandbox {
  private current: unknown;

  constructor(
    state: unknown,
    private launcherSetting: SandboxLauncherSetting,
  ) {
    this.current = normalize(state);
  }

  /** The thread's sandbox state (the host's value itself), or undefined when it has none. */
  get state(): unknown {
    return this.current;
  }

  /** Replace the state for calls issued from now on; `undefined`/`null` clears it. */
  setState(state: unknown): void {
    this.current = normalize(state);
  }

  setLauncherSetting(setting: SandboxLauncherSetting): void {
    this.launcherSetting = setting;
  }

  /** The authority of a call issued now: the host's own for this call if given, else the thread's. */
  capture(host?: SandboxAuthority): CallAuthority {
    const state = normalize(host?.state);
    if (host === undefined || state === undefined) {
      return new CallAuthority(this.current, this.launcherSetting);
    }
    const launcher: SandboxLauncherSetting =
      host.launcher === undefined ? this.launcherSetting : { kind: 'path', path: host.launcher };
    return new CallAuthority(state, launcher);
  }
}

const normalize = (state: unknown): unknown => (state === null ? undefined : state);

/**
 * Part of the call path's priming (manager/callPathWarmUp.ts, ADR 0027): a call's authority
 * captured and turned into `_meta` and arguments on a throw-away sandbox without a state (the
 * usual case; no launcher is resolved, nothing is probed or spawned).
 */
export function warmUpCallAuthority(): void {
  const authority = new SessionSandbox(undefined, { kind: 'default' }).capture(undefined);
  const target: SandboxTarget = { capabilities: {}, localStdio: true };
  authority.metaNow(target, { threadId: 'warm-up' });
  authority.arguments({ message: 'warm-up' });
}
