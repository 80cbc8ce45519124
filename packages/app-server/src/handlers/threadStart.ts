/**
 * `thread/start`: re-reads config (as Codex does per thread), validates the selected
 * environments, opens a runtime session, answers with the thread, then sends `thread/started` and
 * starts the servers, streaming `mcpServer/startupStatus/updated` to the owner. When the config
 * has `required` servers, the answer waits for those only; if one fails, the thread is not
 * created and the error is Codex's aggregated message. `view` (mcprt extension) runs the session
 * under a `[views.NAME]` selection; an unknown or invalid view is an invalid request (the
 * runtime's `UnknownViewError` text) and nothing is started.
 */

import { isAbsolute, resolve } from 'node:path';

import { RequiredServersError, UnknownViewError } from '@mcprt/runtime';
import type { Session, StartupStatusEvent } from '@mcprt/runtime';

import type { HandlerContext } from '../context.js';
import { internalError, invalidRequest } from '../errorMap.js';
import type { ThreadRecord } from '../threads.js';
import { wireThread } from '../threads.js';
import { AppUiLookup } from '../appUi.js';
import { primeToolCallHandling } from '../callWarmUp.js';
import { elicitThroughPeer, forwardToolCalls, startupNotification } from '../threadEvents.js';
import { ToolCallEncoder } from '../toolCallText.js';

interface ThreadStartInput {
  readonly ephemeral?: boolean | null | undefined;
  readonly cwd?: string | null | undefined;
  readonly environments?:
    readonly { readonly environmentId: string; readonly cwd: string }[] | null | undefined;
  readonly sandboxState?: unknown;
  readonly view?: string | null | undefined;
}

export async function threadStart(params: ThreadStartInput, ctx: HandlerContext) {
  const { runtime, threads, probe } = ctx.state;
  const before = runtime.config;
  try {
    runtime.refreshConfig();
  } catch (error) {
    throw invalidRequest(`failed to load configuration: ${(error as Error).message}`);
  }
  if (runtime.config !== before) await probe.invalidate();

  const cwd = params.cwd ? resolve(params.cwd) : process.cwd();
  const environments = selectEnvironments(params.environments ?? null, cwd, ctx);
  let session: Session;
  try {
    session = runtime.startSession({
      cwd,
      environments: environments.filter((e) => e.environmentId !== 'local'),
      lazy: true,
      sandboxState: params.sandboxState,
      onElicitation: elicitThroughPeer(ctx.peer),
      view: params.view ?? null,
      // The app-server's clients can render or open MCP Apps (the TUI's `/app`).
      mcpApps: true,
    });
  } catch (error) {
    if (error instanceof UnknownViewError) throw invalidRequest(error.message);
    throw error;
  }
  const apps = new AppUiLookup(() => session.tools());
  const encoder = new ToolCallEncoder((e) => apps.text(e.scope, e.tool));
  forwardToolCalls(session, ctx.peer, encoder);
  const thread: ThreadRecord = {
    id: session.threadId,
    session,
    owner: ctx.peer,
    cwd,
    ephemeral: params.ephemeral ?? false,
    createdAt: Math.floor(Date.now() / 1000),
    environments,
    inflight: new Map(),
    encoder,
  };

  // Startup events are held until the thread exists for the client (after the response).
  const held: StartupStatusEvent[] = [];
  let live = false;
  const forward = (e: StartupStatusEvent) =>
    ctx.peer.notify('mcpServer/startupStatus/updated', startupNotification(e));
  session.on('startupStatus', (e) => (live ? forward(e) : held.push(e)));
  session.start();
  // While its servers start: the tool-call handling's pure steps, once per process (ADR 0027).
  primeToolCallHandling();

  if (session.listStatus().some((s) => s.required && s.enabled)) {
    try {
      await session.ready({ requiredOnly: true });
    } catch (error) {
      await session.close();
      if (error instanceof RequiredServersError) {
        throw internalError(`error creating thread: ${error.message}`);
      }
      throw error;
    }
  }
  threads.add(thread);
  const wire = wireThread(thread);
  // After the response has been written (it is sent when this handler's promise settles).
  setImmediate(() => {
    ctx.peer.notify('thread/started', { thread: wire });
    live = true;
    for (const e of held.splice(0)) forward(e);
    // Tasks an earlier run left unfinished are followed again to their end (in the history).
    session.tasks.resumeAll();
  });
  return { thread: wire };
}

function selectEnvironments(
  requested: readonly { environmentId: string; cwd: string }[] | null,
  cwd: string,
  ctx: HandlerContext,
): { environmentId: string; cwd: string }[] {
  const registry = ctx.state.runtime.environments;
  if (requested === null) {
    return [
      { environmentId: 'local', cwd },
      ...registry.configuredIds.map((id) => ({
        environmentId: id,
        cwd: registry.get(id)?.defaultCwd ?? cwd,
      })),
    ];
  }
  const seen = new Set<string>();
  return requested.map((e) => {
    if (!registry.has(e.environmentId))
      throw invalidRequest(`unknown environment id \`${e.environmentId}\``);
    if (seen.has(e.environmentId))
      throw invalidRequest(`environment \`${e.environmentId}\` is selected twice`);
    seen.add(e.environmentId);
    if (!isAbsolute(e.cwd)) {
      throw invalidRequest(
        `cwd \`${e.cwd}\` of environment \`${e.environmentId}\` must be an absolute path`,
      );
    }
    return { environmentId: e.environmentId, cwd: e.cwd };
  });
}
