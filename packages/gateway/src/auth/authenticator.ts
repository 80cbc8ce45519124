/**
 * How the HTTP listener identifies a caller (`[serve.auth] mode`): every request's
 * `Authorization` header goes to the authenticator before anything else is read, and its outcome
 * is either the caller (caller.ts) or the refusal to send (status, headers, a short body that
 * never repeats the presented token). Public documents (RFC 9728 protected-resource metadata in
 * `oauth` mode) are served without a token.
 */

import type { Caller } from '../caller.js';

export type AuthOutcome =
  | { readonly ok: true; readonly caller: Caller }
  | {
      readonly ok: false;
      readonly status: 400 | 401 | 403;
      /** e.g. `www-authenticate`. */
      readonly headers: Readonly<Record<string, string>>;
      readonly body: string;
    };

export interface PublicDocument {
  readonly contentType: string;
  readonly body: string;
}

export interface HttpAuthenticator {
  /** `Authorization` header as received (undefined: none). */
  authenticate(authorization: string | undefined): Promise<AuthOutcome>;
  /** The document served at `path` without a token, or null. */
  publicDocument(path: string): PublicDocument | null;
}
