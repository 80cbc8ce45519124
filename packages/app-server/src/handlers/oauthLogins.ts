/**
 * The OAuth logins started through `mcpServer/oauth/login` that have not ended, by `loginId`,
 * each owned by the client connection that started it: only that connection can complete one
 * with a pasted redirect URL (`mcpServer/oauth/login/submitRedirect`), as only it learns the id
 * and receives the completion notification. A login leaves the table when it ends; when its
 * connection closes it is cancelled (nobody is left to paste the URL or to be told the outcome),
 * which also frees its loopback callback port at once.
 */

import type { PendingOAuthLogin } from '@mcprt/runtime';

import type { RpcPeer } from '../rpcPeer.js';

export class OAuthLoginTable {
  readonly #byPeer = new Map<RpcPeer, Map<string, PendingOAuthLogin>>();

  /** Keep `login` for `owner` until it ends; a closed owner cancels it at once. */
  add(owner: RpcPeer, login: PendingOAuthLogin): void {
    if (owner.isClosed) {
      login.cancel();
      return;
    }
    let logins = this.#byPeer.get(owner);
    if (!logins) {
      logins = new Map();
      this.#byPeer.set(owner, logins);
    }
    logins.set(login.loginId, login);
    const drop = () => {
      const current = this.#byPeer.get(owner);
      if (current?.get(login.loginId) !== login) return;
      current.delete(login.loginId);
      if (current.size === 0) this.#byPeer.delete(owner);
    };
    login.completed.then(drop, drop);
  }

  /** The pending login `loginId` of `owner`, if it has not ended. */
  get(owner: RpcPeer, loginId: string): PendingOAuthLogin | undefined {
    return this.#byPeer.get(owner)?.get(loginId);
  }

  /** `owner`'s connection closed: cancel and forget its pending logins. */
  cancelOwnedBy(owner: RpcPeer): void {
    const logins = this.#byPeer.get(owner);
    this.#byPeer.delete(owner);
    for (const login of logins?.values() ?? []) login.cancel();
  }
}
