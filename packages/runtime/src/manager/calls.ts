/**
 * Requests a session sends to its servers: tool calls — routed, filtered by the tool policy,
 * given the thread's sandbox authority as it was when the call was issued (or the host's own for
 * that call), recorded (events and history, with the view it was made through; a call a view
 * refused, or one to a registration that is not available, is recorded without contacting a
 * server), retried once on a fresh HTTP session when the server lost ours, and failed with texts
 * that name the registration (and why a server that died under a call ended) — resource reads,
 * prompts, SEP-2640 skills, and live listings of resources, templates and prompts across
 * registrations.
 */

import type { Mutable } from '@mcprt/base';

import type { CallSignal } from '../connection/callCancel.js';
import type { CallOptions } from '../connection/connection.js';
import type { ListItems } from '../connection/inventorySync.js';
import type {
  CallToolResult,
  GetPromptResult,
  ProgressUpdate,
  ReadResourceResult,
} from '../connection/mcpTypes.js';
import { McpRequestError } from '../connection/requestErrors.js';
import type { TaskRef, TaskState } from '../connection/taskWire.js';
import { offersTasks } from '../connection/taskWire.js';
import {
  RequestFailedError,
  ServerUnavailableError,
  ToolDisabledError,
  UnknownServerError,
} from '../errors.js';
import type { HistorySink } from '../history/types.js';
import { toolFilterReason } from '../inventory/toolFilter.js';
import type { SandboxAuthority, SessionSandbox } from '../sandbox/sessionSandbox.js';
import { NEEDS_LAUNCHER, sandboxTarget } from '../sandbox/sessionSandbox.js';
import type { RegistrationScope } from '../scope.js';
import type { SkillFile, SkillFileRequest, SkillListing } from '../skills/types.js';
import type { CallEmitter } from './callTracker.js';
import { isPlainObjectOrAbsent, ToolCallTracker, withThreadId } from './callTracker.js';
import type { ListingKind } from './lastListings.js';
import type { RegistrationSet } from './registrationSet.js';
import type { Router } from './router.js';

export interface ToolCallRequest {
  readonly server: string;
  readonly tool: string;
  readonly environmentId?: string | null;
  readonly arguments?: Record<string, unknown>;
  /** Request `_meta`: an object is sent with `threadId` set; anything else is forwarded as is. */
  readonly meta?: unknown;
  /**
   * What cancels the call: an `AbortSignal`, or a `CallCancel` (lighter: no signal is made per
   * call unless a path needs one, ADR 0023).
   */
  readonly signal?: CallSignal;
  /** Call id used in events and history (default: a fresh time-ordered UUID, manager/callId.ts). */
  readonly callId?: string;
  /** Overrides the registration's `tool_timeout_sec`. */
  readonly timeoutMs?: number;
  /**
   * The issuing host's own sandbox authority for this call, used instead of the thread's state
   * (see docs/sandbox.md §5). Only the host sets it — never a model or a tool argument. A
   * missing or null `state` means none was given: the thread's state applies.
   */
  readonly sandboxAuthority?: SandboxAuthority;
  readonly onProgress?: (progress: ProgressUpdate) => void;
  /**
   * The view the call is made through, recorded on its history record and events (absent: none).
   * Recording only: which tools a view allows is decided before the call gets here.
   */
  readonly view?: string;
  /** Who asked for the call (a gateway's caller), recorded on its history record (absent: none). */
  readonly caller?: CallerIdentity;
  /**
   * Tasks (docs/tool-calls.md): ask for one where the tool allows it (2025 `taskSupport:
   * optional`); told the task's reference once the server made one (it is in the history then).
   */
  readonly task?: {
    readonly wanted?: boolean;
    readonly onCreated?: (ref: TaskRef) => void;
    /** Each state the server reported while the task ran (status, status message). */
    readonly onState?: (state: TaskState) => void;
  };
}

/**
 * The identity of a gateway's caller as the history keeps it: the OAuth token's `sub` and client
 * id (`client_id`, else `azp`); nulls when the caller was not identified by either (a static
 * token, a local stdio client). Never a token.
 */
export interface CallerIdentity {
  readonly subject: string | null;
  readonly clientId: string | null;
}

/**
 * A call refused before it reached any server (the session's view does not include the tool):
 * `recordRefusedCall` writes it to the history with status `refused`.
 */
export interface RefusedCallRequest {
  readonly server: string;
  /** The registration scope's environment (null: thread-wide). */
  readonly environmentId: string | null;
  readonly tool: string;
  /** Redacted as any call's arguments before they are stored. */
  readonly arguments?: unknown;
  /** The view that refused the call (null: none). */
  readonly view: string | null;
  /** Why it was refused: the text stored as the record's `error`. */
  readonly error: string;
  /** Who asked (a gateway's caller; absent: none). */
  readonly caller?: CallerIdentity;
  /** The record's id (default: a fresh time-ordered UUID, manager/callId.ts). */
  readonly callId?: string;
}

export interface PromptRequest {
  readonly server: string;
  readonly name: string;
  readonly environmentId?: string | null;
  readonly arguments?: Record<string, string>;
  readonly signal?: AbortSignal;
}

export interface SkillListRequest {
  readonly server: string;
  readonly environmentId?: string | null;
  readonly signal?: AbortSignal;
}

export interface ResourceReadRequest {
  readonly server: string;
  readonly uri: string;
  readonly environmentId?: string | null;
  readonly signal?: AbortSignal;
}

export interface ResourceFilter {
  readonly server?: string;
  readonly environmentId?: string | null;
}

/** Items of a live listing per registration, and the registrations whose listing failed. */
export interface LiveListing<T> {
  readonly data: { scope: RegistrationScope; items: T[] }[];
  readonly errors: { scope: RegistrationScope; error: string }[];
}

export interface CallsContext {
  readonly threadId: string;
  readonly router: Router;
  readonly registrations: RegistrationSet;
  readonly sandbox: SessionSandbox;
  /** Where tool calls are recorded (null: not recorded). */
  readonly history: HistorySink | null;
  /** Tool-call lifecycle events, emitted by the session. */
  readonly events: CallEmitter;
}

export class SessionCalls {
  private readonly tracker: ToolCallTracker;

  constructor(private readonly ctx: CallsContext) {
    this.tracker = new ToolCallTracker(ctx.threadId, ctx.history, ctx.events);
  }

  async callTool(request: ToolCallRequest): Promise<CallToolResult> {
    // The thread's state when the call is issued (or the host's own authority for this call).
    const authority = this.ctx.sandbox.capture(request.sandboxAuthority);
    // A ready thread-wide server is reached without waiting (no await before the request is sent).
    let target = this.ctx.router.ready(request.server, request.environmentId);
    if (target === null) {
      const startedAt = Date.now();
      try {
        target = await this.ctx.router.live(request.server, request.environmentId);
      } catch (error) {
        // A known registration that is not available (failed, restarting past restart_wait_sec):
        // the call is recorded; a name no registration has is not.
        if (error instanceof ServerUnavailableError && error.scope !== null)
          this.tracker.unreached(error.scope, request, error.message, startedAt);
        throw error;
      }
    }
    const { reg } = target;
    let connection = target.connection;
    const config = reg.config ?? connection.config;
    const disabled = toolFilterReason(config, request.tool);
    if (disabled !== null) {
      const error = new ToolDisabledError(request.tool, reg.label, disabled);
      this.tracker.unreached(reg.scope, request, error.message, Date.now());
      throw error;
    }
    const call = this.tracker.begin(reg.scope, request);
    let taskMade = false;
    try {
      const sandbox = sandboxTarget(config, connection.capabilities);
      const clientMeta = withThreadId(request.meta, this.ctx.threadId);
      const quick = authority.metaNow(sandbox, clientMeta);
      const meta = quick !== NEEDS_LAUNCHER ? quick : await authority.meta(sandbox, clientMeta);
      const args = authority.arguments(request.arguments);
      const options: Mutable<CallOptions> = {
        timeoutMs: request.timeoutMs ?? config.toolTimeoutMs,
        meta,
      };
      if (request.signal) options.signal = request.signal;
      // Task options only for a server that offers tasks: nothing more on other calls' path.
      const onCreated = request.task?.onCreated;
      const onState = request.task?.onState;
      if (offersTasks(connection.capabilities))
        options.task = {
          wanted: request.task?.wanted === true,
          ...(onState ? { onState } : {}),
          onCreated: (ref) => {
            taskMade = true;
            call.task(ref);
            onCreated?.(ref);
          },
        };
      // A progress token lives in `_meta`; a non-object `_meta` is forwarded untouched, so no
      // progress is requested for it.
      if (isPlainObjectOrAbsent(meta)) {
        options.onProgress = (p: ProgressUpdate) => {
          call.progress(p);
          request.onProgress?.(p);
        };
      }
      let result: CallToolResult;
      try {
        const sent = connection.callTool(request.tool, args, options);
        // The start record is made once the request is on its way (a ready server's request is
        // written synchronously): its redaction and encoding run while the server works, and it
        // is written with the call's next journal write as before (ADR 0022).
        call.record();
        result = await sent;
      } catch (error) {
        // An HTTP server that lost our session (restarted: 404 / session not found) never ran
        // the call: re-initialize once and send it again.
        if (!(error instanceof McpRequestError && error.kind === 'session_lost')) throw error;
        connection = await reg.reconnect(connection, 'the server no longer knows our HTTP session');
        result = await connection.callTool(request.tool, args, options);
      }
      // Awaited only when the history write is batched (no promise hop otherwise).
      const written = call.finish(result, null, request.signal);
      if (written !== undefined) await written;
      return result;
    } catch (error) {
      const failure = requestFailed('tools/call', reg.label, error);
      // The session closes under a task the server still runs: left for the next host to resume.
      if (taskMade && this.ctx.router.isClosed()) {
        call.leave();
        throw failure;
      }
      const written = call.finish(null, failure.message, request.signal);
      if (written !== undefined) await written;
      throw failure;
    }
  }

  /** Record a call refused without contacting any server (history status `refused`). */
  recordRefusedCall(request: RefusedCallRequest): void {
    this.tracker.refused(request);
  }

  /** A tool by its model-visible name (`mcp__server__tool`), from the session's inventory. */
  async callModelTool(
    modelName: string,
    args?: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<CallToolResult> {
    const entry = this.ctx.registrations.inventory().findByModelName(modelName);
    if (!entry) throw new UnknownServerError(modelName, null);
    return this.callTool({
      server: entry.scope.name,
      environmentId: entry.scope.environmentId,
      tool: entry.tool.name,
      ...(args ? { arguments: args } : {}),
      ...(signal ? { signal } : {}),
    });
  }

  async readResource(request: ResourceReadRequest): Promise<ReadResourceResult> {
    const { reg, connection, limits } = await this.target(request);
    try {
      return await connection.readResource(request.uri, limits);
    } catch (error) {
      throw requestFailed('resources/read', reg.label, error, false);
    }
  }

  /** `prompts/get` on one registration (the usual routing); the result is returned unchanged. */
  async getPrompt(request: PromptRequest): Promise<GetPromptResult> {
    const { reg, connection, limits } = await this.target(request);
    try {
      return await connection.getPrompt(request.name, request.arguments, limits);
    } catch (error) {
      throw requestFailed('prompts/get', reg.label, error, false);
    }
  }

  /** SEP-2640 skills of one registration, listed without reading any file (docs/skills.md). */
  async listSkills(request: SkillListRequest): Promise<SkillListing> {
    const { connection, limits } = await this.target(request);
    return connection.skills.list(limits);
  }

  /** One file of a listed skill (default `SKILL.md`), read now and verified against the entry. */
  async readSkillFile(request: SkillFileRequest): Promise<SkillFile> {
    const { connection, limits } = await this.target(request);
    return connection.skills.read(request.skill, request.path, limits);
  }

  /**
   * The live registration a request reaches, and the bounds every request to it gets: its
   * current `tool_timeout_sec` and the caller's signal.
   */
  private async target(request: {
    readonly server: string;
    readonly environmentId?: string | null;
    readonly signal?: AbortSignal;
  }) {
    const { reg, connection } = await this.ctx.router.live(request.server, request.environmentId);
    const timeoutMs = (reg.config ?? connection.config).toolTimeoutMs;
    const signal = request.signal;
    return { reg, connection, limits: { timeoutMs, ...(signal ? { signal } : {}) } };
  }

  /**
   * One list of every ready registration (or of one: `server` + optional `environmentId`, the
   * usual routing), fetched live page by page; a restarting registration, or one lost with its
   * environment, is listed under what its server last listed (lastListings.ts), as its tools
   * are. A server that fails (e.g. `resources/list returned duplicate cursor`) is left out and
   * reported in `errors`; the others are listed.
   */
  async list<K extends ListingKind>(
    kind: K,
    filter: ResourceFilter,
  ): Promise<LiveListing<ListItems[K]>> {
    const { registrations, router } = this.ctx;
    const targets =
      filter.server !== undefined
        ? [await router.live(filter.server, filter.environmentId)]
        : registrations.values().map((reg) => ({ reg, connection: reg.live }));
    const settled = await Promise.allSettled(
      targets.map(async ({ reg, connection }) => {
        if (connection === null) {
          return registrations.standsIn(reg) ? registrations.listings.recall(reg, kind) : undefined;
        }
        const timeoutMs = (reg.config ?? connection.config).toolTimeoutMs;
        const items = await connection.list(kind, { timeoutMs });
        registrations.listings.remember(reg, kind, items);
        return items;
      }),
    );
    const listing: LiveListing<ListItems[K]> = { data: [], errors: [] };
    settled.forEach((outcome, i) => {
      const scope = targets[i]?.reg.scope;
      if (scope === undefined) return;
      if (outcome.status === 'rejected') {
        listing.errors.push({ scope, error: errorText(outcome.reason) });
      } else if (outcome.value !== undefined) {
        listing.data.push({ scope, items: [...outcome.value] });
      }
    });
    return listing;
  }
}

/**
 * The failure of a request, naming the registration. A tool call to a server that died under it
 * says why it ended instead of the transport's bare "Connection closed". The server's own
 * JSON-RPC error travels along (`serverError`) for hosts that pass it on.
 */
function requestFailed(
  method: string,
  label: string,
  error: unknown,
  explainDeath = true,
): RequestFailedError {
  const translated = error instanceof McpRequestError ? error : null;
  const died =
    explainDeath && translated?.kind === 'connection_closed'
      ? `the server stopped during the call (${translated.details.closeReason ?? 'connection closed'})`
      : null;
  return new RequestFailedError(
    `${method} to MCP server \`${label}\` failed: ${died ?? errorText(error)}`,
    { cause: error, serverError: translated?.serverError ?? null },
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
