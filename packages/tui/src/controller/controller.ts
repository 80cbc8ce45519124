/**
 * The TUI's session with one app-server, with no rendering in it: starts a thread (under a view
 * when asked), keeps the registrations live (status list + `mcpServer/startupStatus/updated`)
 * and, once they have settled, what the thread's tools cost (`thread/toolView/get`; an
 * app-server without it shows no tokens), runs the slash commands (those that call the
 * app-server are in actions.ts, logins.ts and apps.ts), hands a line that is not a command to a
 * waiting login as its pasted redirect URL, queues elicitation requests until the user answers
 * them, and exposes everything as one immutable `TuiState` with `subscribe`/`getSnapshot`
 * (React's external-store contract). In-process and remote app-servers are the same code path.
 */

import { Coalescer, scopeLabel } from '@mcprt/base';
import type {
  McpServerElicitationRequestParams,
  McpServerElicitationRequestResult,
  McpServerStatus,
  McpServerStatusUpdatedNotification,
  ThreadToolViewGetResult,
} from '@mcprt/protocol';
import type { McprtClient, Unsubscribe } from '@mcprt/sdk';

import type { Cell, CellBody, TextItem } from '../model/cells.js';
import type { Command } from '../model/commands.js';
import { HELP_LINES, parseCommand } from '../model/commands.js';
import { redactRedirectUrl } from '../model/loginView.js';
import type { EnvironmentSummary } from '../model/mcpView.js';
import type { Registration } from '../model/registrations.js';
import { allSettled, applyStartupUpdate, applyStatusList } from '../model/registrations.js';
import type { ActionContext } from './actions.js';
import { errorMessage as message, runAction } from './actions.js';
import { Logins } from './logins.js';
import { MethodUnavailableError, whenAvailable } from './optionalMethods.js';

export interface PendingElicitation {
  readonly id: number;
  readonly params: McpServerElicitationRequestParams;
  /** The asking registration, `server@env` (bare name for thread-wide). */
  readonly scope: string;
}

export interface TuiState {
  /** Where the app-server is: `in-process app-server`, `ws://…`. */
  readonly connectionLabel: string;
  readonly threadId: string | null;
  /** The thread's environments in priority order (`local` first). */
  readonly environmentOrder: readonly string[];
  readonly environments: ReadonlyMap<string, EnvironmentSummary>;
  readonly registrations: readonly Registration[];
  /** What the thread's tools cost, fetched when its registrations settle; null: not known. */
  readonly toolView: ThreadToolViewGetResult | null;
  readonly cells: readonly Cell[];
  /** Elicitations waiting for the user, oldest first; the first one is shown. */
  readonly elicitations: readonly PendingElicitation[];
  /** The connection to the app-server is gone. */
  readonly disconnected: boolean;
  /** `/quit` was typed. */
  readonly quitRequested: boolean;
}

export interface TuiControllerOptions {
  readonly connectionLabel: string;
  /** The thread's cwd (default: this process's). */
  readonly cwd?: string;
  /** The view (`[views.NAME]`) the thread runs under (default: none, the whole inventory). */
  readonly view?: string;
  /** Clock seam for durations (default `Date.now`). */
  readonly now?: () => number;
  readonly apps?: ActionContext['apps']; // where `/app` writes, how it opens a browser (apps.ts)
}

type ElicitationResult = McpServerElicitationRequestResult;

export class TuiController {
  readonly #client: McprtClient;
  readonly #now: () => number;
  readonly #cwd: string;
  readonly #view: string | undefined;
  /** False once the app-server answered `thread/toolView/get` with method-not-found. */
  #toolViewAvailable = true;
  #state: TuiState;
  readonly #listeners = new Set<() => void>();
  readonly #unsubscribes: Unsubscribe[] = [];
  #nextId = 1;
  #seq = 0;
  /** Status fetches: at most one in flight and one queued behind it. */
  readonly #statusFetches = new Coalescer(() => this.#fetchStatuses());
  /** `/mcp` cells whose first status list has arrived. */
  readonly #loadedMcpCells = new Set<number>();
  readonly #resolvers = new Map<number, (result: ElicitationResult) => void>();
  readonly #actions: ActionContext;
  readonly #logins: Logins;

  constructor(client: McprtClient, options: TuiControllerOptions) {
    this.#client = client;
    this.#now = options.now ?? Date.now;
    this.#cwd = options.cwd ?? process.cwd();
    this.#view = options.view;
    this.#state = {
      connectionLabel: options.connectionLabel,
      threadId: null,
      environmentOrder: [],
      environments: new Map(),
      registrations: [],
      toolView: null,
      cells: [],
      elicitations: [],
      disconnected: false,
      quitRequested: false,
    };
    this.#actions = {
      client,
      now: this.#now,
      threadId: () => this.#state.threadId,
      registrations: () => this.#state.registrations,
      environmentOrder: () => this.#state.environmentOrder,
      addCell: (body, done) => this.#addCell(body, done),
      replaceCell: (id, body, done) => this.#replaceCell(id, body, done),
      cellBody: (id) => this.#state.cells.find((c) => c.id === id),
      refreshStatuses: () => this.refreshStatuses(),
      apps: options.apps ?? {},
    };
    this.#logins = new Logins(this.#actions);
  }

  readonly getSnapshot = (): TuiState => this.#state;

  readonly subscribe = (listener: () => void): Unsubscribe => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /**
   * Subscribe, start the thread, load environments and show `/mcp`. Never rejects: what fails
   * (no thread, no environment list) becomes a note in the transcript.
   */
  async start(): Promise<void> {
    const client = this.#client;
    this.#unsubscribes.push(
      client.on('mcpServer/startupStatus/updated', (p) => this.#onStartup(p)),
      client.handleRequest('mcpServer/elicitation/request', (params, ctx) =>
        this.#enqueueElicitation(params, ctx.signal),
      ),
      client.on('mcpServer/oauthLogin/completed', (p) => this.#logins.completed(p)),
      client.onClose((error) => {
        this.#update({ disconnected: true });
        this.#note(
          `Disconnected from the app-server${error ? `: ${error.message}` : '.'}`,
          'error',
        );
      }),
    );
    const home = this.#safeHome();
    this.#note(`mcprt · ${this.#state.connectionLabel}${home ? ` · home ${home}` : ''}`, 'bold');
    this.#note('Type /help for commands, /quit to leave.', 'dim');
    try {
      const { thread } = await client.request('thread/start', {
        cwd: this.#cwd,
        ...(this.#view !== undefined ? { view: this.#view } : {}),
      });
      this.#update({
        threadId: thread.id,
        environmentOrder: thread.environments.map((e) => e.environmentId),
      });
    } catch (error) {
      this.#note(`Could not start a thread: ${message(error)}`, 'error');
    }
    try {
      const threadId = this.#state.threadId;
      const { data } = await client.request(
        'environment/list',
        threadId === null ? {} : { threadId },
      );
      this.#update({
        environments: new Map(
          data.map((e) => [e.environmentId, { kind: e.kind, status: e.status, error: e.error }]),
        ),
        ...(this.#state.environmentOrder.length === 0
          ? { environmentOrder: data.map((e) => e.environmentId) }
          : {}),
      });
    } catch (error) {
      this.#note(`Could not list environments: ${message(error)}`, 'error');
    }
    this.#showMcp(false);
  }

  /** Run one line typed at the prompt (not a command while a login waits: its redirect URL). */
  submit(input: string): void {
    const text = input.trim();
    if (text === '') return;
    const pasted = !text.startsWith('/') && this.#logins.waitingForPaste();
    // The authorization code of a pasted redirect is not echoed.
    const echo = pasted ? redactRedirectUrl(text) : text;
    this.#addCell(
      { kind: 'text', items: [{ text: echo, tone: 'dim', prefix: '› ', restPrefix: '  ' }] },
      true,
    );
    if (pasted) return void this.#logins.paste(text);
    const command: Command = parseCommand(text);
    switch (command.kind) {
      case 'invalid':
        return this.#note(command.message, 'error');
      case 'help':
        return void this.#addCell(
          {
            kind: 'text',
            items: HELP_LINES.map((t) => ({
              text: t,
              tone: 'plain' as const,
              prefix: '  ',
              restPrefix: '      ',
            })),
          },
          true,
        );
      case 'quit':
        return this.#update({ quitRequested: true });
      case 'mcp':
        return this.#showMcp(command.verbose);
      case 'login':
      case 'logout':
        return void this.#logins.run(command.kind, command.name, command.environmentId);
      case 'call':
      case 'history':
      case 'app':
        return void runAction(this.#actions, command);
    }
  }

  /** Answer the elicitation `id` (from the form or URL prompt). */
  answerElicitation(id: number, result: ElicitationResult): void {
    const resolve = this.#resolvers.get(id);
    const pending = this.#state.elicitations.find((e) => e.id === id);
    if (!resolve || !pending) return;
    this.#resolvers.delete(id);
    resolve(result);
    this.#update({ elicitations: this.#state.elicitations.filter((e) => e.id !== id) });
    const outcome =
      result.action === 'accept'
        ? 'accepted'
        : result.action === 'decline'
          ? 'declined'
          : 'cancelled';
    this.#addCell(
      {
        kind: 'text',
        items: [
          {
            text: `• ${pending.scope} asked ${pending.params.mode === 'url' ? 'to open a URL' : 'for input'}: ${outcome}`,
            tone: result.action === 'accept' ? 'ok' : 'warn',
            restPrefix: '  ',
          },
        ],
      },
      true,
    );
  }

  /** Cancel what waits on the user and stop listening (the client is closed by its owner). */
  close(): void {
    for (const e of [...this.#state.elicitations])
      this.answerElicitation(e.id, { action: 'cancel', content: null });
    for (const off of this.#unsubscribes.splice(0)) off();
  }

  /** Fetch every registration's status (coalesced: at most one fetch waits behind another). */
  refreshStatuses(): Promise<void> {
    return this.#statusFetches.run();
  }

  async #fetchStatuses(): Promise<void> {
    const seq = ++this.#seq;
    const threadId = this.#state.threadId;
    const items: McpServerStatus[] = [];
    let cursor: string | null = null;
    try {
      do {
        const page: { data: McpServerStatus[]; nextCursor: string | null } =
          await this.#client.request('mcpServerStatus/list', {
            ...(threadId === null ? {} : { threadId }),
            ...(cursor === null ? {} : { cursor }),
            detail: 'full',
          });
        items.push(...page.data);
        cursor = page.nextCursor;
      } while (cursor !== null);
    } catch (error) {
      if (!this.#state.disconnected)
        this.#note(`Could not list MCP servers: ${message(error)}`, 'error');
      return;
    }
    // The costs once every registration has settled (before the update, so a `/mcp` cell that
    // settles with it shows them); the list is applied to the registrations as they are then.
    let toolView = this.#state.toolView;
    if (threadId !== null && allSettled(applyStatusList(this.#state.registrations, items, seq))) {
      toolView = (await this.#fetchToolView(threadId)) ?? toolView;
    }
    this.#update({
      registrations: applyStatusList(this.#state.registrations, items, seq),
      toolView,
    });
  }

  /** `thread/toolView/get`; null when the app-server lacks it or it failed (noted). */
  async #fetchToolView(threadId: string): Promise<ThreadToolViewGetResult | null> {
    if (!this.#toolViewAvailable) return null;
    try {
      return await whenAvailable('toolView', () =>
        this.#client.request('thread/toolView/get', { threadId }),
      );
    } catch (error) {
      if (error instanceof MethodUnavailableError) this.#toolViewAvailable = false;
      else if (!this.#state.disconnected)
        this.#note(`Could not get the tool costs: ${message(error)}`, 'error');
      return null;
    }
  }

  #onStartup(p: McpServerStatusUpdatedNotification): void {
    const threadId = this.#state.threadId;
    if (threadId !== null && p.threadId !== null && p.threadId !== threadId) return;
    this.#update({ registrations: applyStartupUpdate(this.#state.registrations, p, ++this.#seq) });
    if (p.status !== 'starting') void this.refreshStatuses();
  }

  #showMcp(verbose: boolean): void {
    const id = this.#addCell({ kind: 'mcp', verbose, snapshot: null }, false);
    void this.refreshStatuses().finally(() => {
      this.#loadedMcpCells.add(id);
      this.#settle();
    });
  }

  #enqueueElicitation(
    params: McpServerElicitationRequestParams,
    signal: AbortSignal,
  ): Promise<ElicitationResult> {
    return new Promise((resolve) => {
      const id = this.#nextId++;
      this.#resolvers.set(id, resolve);
      const pending: PendingElicitation = {
        id,
        params,
        scope: scopeLabel({ name: params.serverName, environmentId: params.environmentId }),
      };
      this.#update({ elicitations: [...this.#state.elicitations, pending] });
      signal.addEventListener(
        'abort',
        () => this.answerElicitation(id, { action: 'cancel', content: null }),
        {
          once: true,
        },
      );
    });
  }

  #safeHome(): string | null {
    try {
      return this.#client.initializeResult.codexHome;
    } catch {
      return null;
    }
  }

  #note(text: string, tone: TextItem['tone']): void {
    this.#addCell({ kind: 'text', items: [{ text, tone, restPrefix: '  ' }] }, true);
  }

  #addCell(body: CellBody, done: boolean): number {
    const id = this.#nextId++;
    this.#update({ cells: [...this.#state.cells, { ...body, id, done } as Cell] });
    return id;
  }

  #replaceCell(id: number, body: CellBody, done: boolean): void {
    this.#update({
      cells: this.#state.cells.map((c) => (c.id === id ? ({ ...body, id, done } as Cell) : c)),
    });
  }

  /** `/mcp` cells whose list arrived and whose servers all settled become fixed snapshots. */
  #settle(): void {
    const regs = this.#state.registrations;
    if (!allSettled(regs)) return;
    const cells = this.#state.cells.map((c) =>
      c.kind === 'mcp' && !c.done && this.#loadedMcpCells.has(c.id)
        ? { ...c, snapshot: regs, toolView: this.#state.toolView, done: true }
        : c,
    );
    if (cells.some((c, i) => c !== this.#state.cells[i])) this.#update({ cells }, false);
  }

  #update(patch: Partial<TuiState>, settle = true): void {
    this.#state = { ...this.#state, ...patch };
    if (settle && patch.registrations !== undefined) this.#settle();
    for (const listener of [...this.#listeners]) listener();
  }
}
