/**
 * What the slash commands that talk to the app-server do: `/call` (a call cell that names the
 * registration reached and ends with the result or error) and `/history` (logins are in
 * logins.ts, `/app` in apps.ts). They act on the transcript through `ActionContext`, which the controller provides.
 */

import { scopeLabel } from '@mcprt/base';
import type { McprtClient } from '@mcprt/sdk';

import type { CallCell } from '../model/callCell.js';
import type { AppHost } from './apps.js';
import { runApp } from './apps.js';
import type { CellBody } from '../model/cells.js';
import type { Command, HistoryFilters } from '../model/commands.js';
import type { HistoryCell } from '../model/historyView.js';
import type { Registration } from '../model/registrations.js';
import { legacyScope } from '../model/registrations.js';
import { MethodUnavailableError, whenAvailable } from './optionalMethods.js';

export interface ActionContext {
  readonly client: McprtClient;
  readonly now: () => number;
  threadId(): string | null;
  registrations(): readonly Registration[];
  environmentOrder(): readonly string[];
  addCell(body: CellBody, done: boolean): number;
  replaceCell(id: number, body: CellBody, done: boolean): void;
  cellBody(id: number): CellBody | undefined;
  refreshStatuses(): Promise<void>;
  /** Where `/app` writes and how it opens a browser (apps.ts). */
  readonly apps: AppHost;
}

export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** `/call`, `/history` and `/app` (apps.ts). */
export function runAction(
  ctx: ActionContext,
  command: Extract<Command, { kind: 'call' | 'history' | 'app' }>,
): Promise<void> {
  if (command.kind === 'call') return runCall(ctx, command);
  if (command.kind === 'history') return runHistory(ctx, command.filters);
  return runApp(ctx, command);
}

/** `/call`: the cell names the registration the call reaches (the runtime's rule when no environment is given). */
export async function runCall(
  ctx: ActionContext,
  command: Extract<Command, { kind: 'call' }>,
): Promise<void> {
  const { server, tool, environmentId, args, argsText } = command;
  const resolved =
    environmentId ?? legacyScope(ctx.registrations(), server, ctx.environmentOrder());
  const call: CallCell = {
    server,
    tool,
    scope: resolved === undefined ? server : scopeLabel({ name: server, environmentId: resolved }),
    argsText,
    state: 'running',
    durationMs: null,
    result: null,
    error: null,
  };
  const id = ctx.addCell({ kind: 'call', call }, false);
  const threadId = ctx.threadId();
  const started = ctx.now();
  const finish = (patch: Partial<CallCell>) =>
    ctx.replaceCell(
      id,
      { kind: 'call', call: { ...call, durationMs: ctx.now() - started, ...patch } },
      true,
    );
  if (threadId === null)
    return finish({ state: 'failed', error: 'there is no thread to call tools in' });
  try {
    const result = await ctx.client.request('mcpServer/tool/call', {
      threadId,
      server,
      tool,
      arguments: args,
      ...(environmentId === null ? {} : { environmentId }),
    });
    finish({ state: result.isError === true ? 'failed' : 'completed', result });
  } catch (error) {
    finish({ state: 'failed', error: errorMessage(error) });
  }
}

/** `/history`: this thread's calls unless `--all`, with the filters given. */
export async function runHistory(ctx: ActionContext, filters: HistoryFilters): Promise<void> {
  const base: HistoryCell = { filters, state: 'loading', rows: [], message: null, more: false };
  const id = ctx.addCell({ kind: 'history', history: base }, false);
  const threadId = ctx.threadId();
  const params = {
    limit: filters.limit,
    ...(filters.allThreads || threadId === null ? {} : { threadId }),
    ...(filters.server === null ? {} : { server: filters.server }),
    ...(filters.environmentId === null ? {} : { environmentId: filters.environmentId }),
    ...(filters.threadWideOnly ? { threadWideOnly: true } : {}),
    ...(filters.status === null ? {} : { status: filters.status }),
  };
  let patch: Partial<HistoryCell>;
  try {
    const result = await whenAvailable('history', () => ctx.client.request('history/list', params));
    patch = { state: 'loaded', rows: result.data, more: result.nextCursor !== null };
  } catch (error) {
    patch =
      error instanceof MethodUnavailableError
        ? { state: 'unavailable', message: error.message }
        : { state: 'failed', message: errorMessage(error) };
  }
  ctx.replaceCell(id, { kind: 'history', history: { ...base, ...patch } }, true);
}
