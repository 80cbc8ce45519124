/**
 * `/mcp login` and `/mcp logout` in the transcript: a login cell shows the authorization URL and
 * waits for `mcpServer/oauthLogin/completed`; while it waits, a URL typed (pasted) at the prompt
 * is offered to it as the redirect the browser was sent to (`mcpServer/oauth/login/submitRedirect`
 * — the browser may be on another machine), and the line under the pasted URL says whether it
 * was accepted. Logout is `mcpServer/oauth/logout`. A server without one of these methods
 * (-32601) gets an inline "not available" message instead.
 */

import { scopeLabel } from '@mcprt/base';
import type { McpServerOauthLoginCompletedNotification } from '@mcprt/protocol';

import type { TextItem } from '../model/cells.js';
import type { LoginCell } from '../model/loginView.js';
import type { ActionContext } from './actions.js';
import { errorMessage } from './actions.js';
import { MethodUnavailableError, whenAvailable } from './optionalMethods.js';

/** How a login is found again when the server gives no `loginId`. */
const loginKey = (name: string, environmentId: string | null): string =>
  `${name}\u0000${environmentId ?? ''}`;

interface PendingLogin {
  readonly cellId: number;
  /** Null when the server gave none (then it cannot take a pasted redirect URL). */
  readonly loginId: string | null;
}

/**
 * `/mcp login` and `/mcp logout`, the logins waiting for their completion notification, and
 * redirect URLs pasted at the prompt for them (`mcpServer/oauth/login/submitRedirect`).
 */
export class Logins {
  /** loginId (or `name\0env` when the server sends none) → the waiting login. */
  readonly #pending = new Map<string, PendingLogin>();

  constructor(private readonly ctx: ActionContext) {}

  async run(action: 'login' | 'logout', name: string, environmentId: string | null) {
    const ctx = this.ctx;
    const base: LoginCell = {
      action,
      target: scopeLabel({ name, environmentId }),
      state: 'requesting',
      authorizationUrl: null,
      message: null,
    };
    const id = ctx.addCell({ kind: 'login', login: base }, false);
    const set = (patch: Partial<LoginCell>, done: boolean) =>
      ctx.replaceCell(id, { kind: 'login', login: { ...base, ...patch } }, done);
    const threadId = ctx.threadId();
    const scope = environmentId === null ? {} : { environmentId };
    try {
      if (action === 'logout') {
        const { removed } = await whenAvailable('logout', () =>
          ctx.client.request('mcpServer/oauth/logout', { name, ...scope }),
        );
        set(
          removed
            ? { state: 'succeeded', message: `Removed OAuth credentials for '${base.target}'.` }
            : { state: 'unchanged', message: `No OAuth credentials stored for '${base.target}'.` },
          true,
        );
        if (removed) void ctx.refreshStatuses();
        return;
      }
      const result = await whenAvailable('login', () =>
        ctx.client.request('mcpServer/oauth/login', {
          name,
          ...scope,
          ...(threadId === null ? {} : { threadId }),
        }),
      );
      this.#pending.set(result.loginId ?? loginKey(name, environmentId), {
        cellId: id,
        loginId: result.loginId,
      });
      set(
        {
          state: 'waiting',
          authorizationUrl: result.authorizationUrl,
          pasteable: result.loginId !== null,
          redirectUri: redirectUriOf(result.authorizationUrl),
        },
        false,
      );
    } catch (error) {
      if (error instanceof MethodUnavailableError)
        set({ state: 'unavailable', message: error.message }, true);
      else set({ state: 'failed', message: errorMessage(error) }, true);
    }
  }

  /** Some login waits for a redirect URL that can be pasted at the prompt. */
  waitingForPaste(): boolean {
    return this.#pasteable().length > 0;
  }

  /**
   * A line typed while logins wait: offer it to each waiting login as its redirect URL (those
   * whose redirect URI it starts with first, newest first) until one accepts it, and say below
   * the echoed line whether one did.
   */
  async paste(text: string): Promise<void> {
    const waiting = this.#pasteable().reverse();
    const ordered = [
      ...waiting.filter((w) => w.redirectUri && text.startsWith(w.redirectUri)),
      ...waiting.filter((w) => !(w.redirectUri && text.startsWith(w.redirectUri))),
    ];
    const reply = (message: string, tone: TextItem['tone']) =>
      this.ctx.addCell(
        { kind: 'text', items: [{ text: message, tone, prefix: '  └ ', restPrefix: '    ' }] },
        true,
      );
    for (const w of ordered) {
      let accepted: boolean;
      try {
        ({ accepted } = await whenAvailable('submitRedirect', () =>
          this.ctx.client.request('mcpServer/oauth/login/submitRedirect', {
            loginId: w.loginId,
            redirectUrl: text,
          }),
        ));
      } catch (error) {
        if (error instanceof MethodUnavailableError) {
          for (const other of waiting) this.#patch(other.cellId, { pasteable: false });
          reply(error.message, 'warn');
        } else reply(`Error: ${errorMessage(error)}`, 'error');
        return;
      }
      if (accepted) {
        this.#patch(w.cellId, { state: 'finishing' });
        reply(`Redirect URL accepted for ${w.target}; finishing the login…`, 'ok');
        return;
      }
    }
    const which = waiting.length === 1 ? `the login of ${waiting[0]!.target}` : 'a waiting login';
    reply(
      `Not the redirect URL of ${which}: it needs the \`code\` and \`state\` the browser was sent back with. Paste the whole address again.`,
      'error',
    );
  }

  /** `mcpServer/oauthLogin/completed`: settle the cell of that login (by loginId, else scope). */
  completed(n: McpServerOauthLoginCompletedNotification): void {
    const key =
      n.loginId !== null && this.#pending.has(n.loginId)
        ? n.loginId
        : loginKey(n.name, n.environmentId);
    const pending = this.#pending.get(key);
    const body = pending === undefined ? undefined : this.ctx.cellBody(pending.cellId);
    if (pending === undefined || body?.kind !== 'login') return;
    this.#pending.delete(key);
    this.ctx.replaceCell(
      pending.cellId,
      {
        kind: 'login',
        login: {
          ...body.login,
          authorizationUrl: null,
          pasteable: false,
          state: n.success ? 'succeeded' : 'failed',
          message: n.success ? null : (n.error ?? 'the login failed'),
        },
      },
      true,
    );
    if (n.success) void this.ctx.refreshStatuses();
  }

  /** Waiting logins a pasted URL can complete, oldest first. */
  #pasteable(): { cellId: number; loginId: string; target: string; redirectUri: string | null }[] {
    const out = [];
    for (const { cellId, loginId } of this.#pending.values()) {
      const body = this.ctx.cellBody(cellId);
      if (loginId === null || body?.kind !== 'login') continue;
      const login = body.login;
      if (login.state !== 'waiting' || login.pasteable !== true) continue;
      out.push({ cellId, loginId, target: login.target, redirectUri: login.redirectUri ?? null });
    }
    return out;
  }

  /** Change a login cell that is still waiting. */
  #patch(cellId: number, patch: Partial<LoginCell>): void {
    const body = this.ctx.cellBody(cellId);
    if (body?.kind !== 'login' || body.login.state !== 'waiting') return;
    this.ctx.replaceCell(cellId, { kind: 'login', login: { ...body.login, ...patch } }, false);
  }
}

/** The `redirect_uri` an authorization URL sends the browser to, if it names one. */
function redirectUriOf(authorizationUrl: string): string | null {
  try {
    return new URL(authorizationUrl).searchParams.get('redirect_uri');
  } catch {
    return null;
  }
}
