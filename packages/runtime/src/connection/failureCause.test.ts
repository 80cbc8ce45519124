// failureCause.ts: an error's cause chain on one line (deduplicated, depth capped, codes added),
// an HTTP transport's failure named by its request, and never a secret of a URL.
import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';

import type { ServerConfig } from '../config/types.js';
import {
  describeCauseChain,
  describeHttpFailure,
  firstLine,
  redactUrl,
  redactUrlsIn,
} from './failureCause.js';

const coded = (message: string, code: string, cause?: unknown): Error =>
  Object.assign(new Error(message, cause === undefined ? undefined : { cause }), { code });

const fetchFailed = (cause?: unknown): TypeError =>
  new TypeError('fetch failed', cause === undefined ? undefined : { cause });

const http = (url: string) =>
  ({ transport: { type: 'streamable_http', url } }) as unknown as ServerConfig;

describe('redactUrl', () => {
  it('keeps scheme, host, port and path; drops userinfo, query and fragment', () => {
    expect(redactUrl('https://user:secret123@example.com:8443/a/mcp?token=secret123#x')).toBe(
      'https://example.com:8443/a/mcp',
    );
    expect(redactUrl(new URL('http://127.0.0.1:9/mcp'))).toBe('http://127.0.0.1:9/mcp');
  });

  it('strips what could be secrets from something that is not a URL', () => {
    expect(redactUrl('http://u:secret123@[bad/mcp?token=secret123')).toBe('http://[bad/mcp');
  });

  it('redacts every URL inside a text, leaving trailing punctuation', () => {
    expect(
      redactUrlsIn('from a URL with credentials: http://u:secret123@h:1/mcp?k=secret123.'),
    ).toBe('from a URL with credentials: http://h:1/mcp.');
    expect(redactUrlsIn('could not reach http://127.0.0.1:1 from the remote side')).toBe(
      'could not reach http://127.0.0.1:1 from the remote side',
    );
  });
});

describe('firstLine', () => {
  it('takes the first non-empty line, trimmed, capped at 200 characters', () => {
    expect(firstLine('\n  database is down \nmore')).toBe('database is down');
    expect(firstLine('x'.repeat(300))).toBe(`${'x'.repeat(200)}…`);
    expect(firstLine('')).toBe('');
  });
});

describe('describeCauseChain', () => {
  it('follows nested causes, dropping messages already said', () => {
    const refused = coded('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED');
    const wrapped = new Error('fetch failed (connect ECONNREFUSED 127.0.0.1:9)', {
      cause: fetchFailed(refused),
    });
    expect(describeCauseChain(wrapped)).toBe('fetch failed (connect ECONNREFUSED 127.0.0.1:9)');
    expect(describeCauseChain(fetchFailed(refused))).toBe(
      'fetch failed: connect ECONNREFUSED 127.0.0.1:9',
    );
  });

  it('adds a code in parentheses when the message does not say it', () => {
    expect(describeCauseChain(coded('other side closed', 'UND_ERR_SOCKET'))).toBe(
      'other side closed (UND_ERR_SOCKET)',
    );
    expect(
      describeCauseChain(
        coded(
          'Connect Timeout Error (attempted address: example.com:443, timeout: 10000ms)',
          'UND_ERR_CONNECT_TIMEOUT',
        ),
      ),
    ).toBe(
      'Connect Timeout Error (attempted address: example.com:443, timeout: 10000ms) (UND_ERR_CONNECT_TIMEOUT)',
    );
    // The SDK's own codes say nothing its messages do not.
    expect(describeCauseChain(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'))).toBe(
      'Request timed out',
    );
  });

  it('names certificate failures as such', () => {
    expect(
      describeCauseChain(
        coded('unable to verify the first certificate', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'),
      ),
    ).toBe(
      'certificate verify failed: unable to verify the first certificate (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
    );
    expect(describeCauseChain(coded('certificate has expired', 'CERT_HAS_EXPIRED'))).toBe(
      'certificate verify failed: certificate has expired (CERT_HAS_EXPIRED)',
    );
  });

  it("names an AggregateError's errors (a few), not its empty message", () => {
    const all = Object.assign(
      new AggregateError([
        coded('connect ECONNREFUSED ::1:9', 'ECONNREFUSED'),
        coded('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED'),
        coded('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED'),
        coded('a fourth', 'E4'),
      ]),
      { code: 'ECONNREFUSED' },
    );
    expect(describeCauseChain(fetchFailed(all))).toBe(
      'fetch failed: connect ECONNREFUSED ::1:9; connect ECONNREFUSED 127.0.0.1:9',
    );
  });

  it('caps the depth and survives cycles', () => {
    let e: Error = new Error('level 0');
    for (let i = 1; i < 20; i++) e = new Error(`level ${i}`, { cause: e });
    expect(describeCauseChain(e).split(': ')).toHaveLength(6);
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(describeCauseChain(b)).toBe('b: a');
  });

  it('uses only the first line of a message and redacts URLs in it', () => {
    expect(describeCauseChain(new Error('boom at http://u:p@h/x?token=secret123\nstack-ish'))).toBe(
      'boom at http://h/x',
    );
    expect(describeCauseChain('plain')).toBe('plain');
  });
});

describe('describeHttpFailure', () => {
  const config = http('http://user:secret123@127.0.0.1:38111/mcp?token=secret123');

  it('names a request that got no response by its method, redacted URL and root cause', () => {
    const refused = coded('connect ECONNREFUSED 127.0.0.1:38111', 'ECONNREFUSED');
    const probe = new SdkError(
      SdkErrorCode.EraNegotiationFailed,
      'Version negotiation probe failed: fetch failed',
      undefined,
      { cause: fetchFailed(refused) },
    );
    expect(describeHttpFailure(config, probe)).toBe(
      'POST http://127.0.0.1:38111/mcp: connect ECONNREFUSED 127.0.0.1:38111',
    );
    expect(describeHttpFailure(config, fetchFailed(refused))).toBe(
      'POST http://127.0.0.1:38111/mcp: connect ECONNREFUSED 127.0.0.1:38111',
    );
    expect(describeHttpFailure(config, fetchFailed())).toBe(
      'POST http://127.0.0.1:38111/mcp: fetch failed',
    );
    const refusedUrl = new TypeError(
      'Request cannot be constructed from a URL that includes credentials: http://user:secret123@127.0.0.1:38111/mcp',
      { cause: new Error('inner') },
    );
    const wrapped = new SdkError(SdkErrorCode.EraNegotiationFailed, 'probe failed', undefined, {
      cause: refusedUrl,
    });
    expect(describeHttpFailure(config, wrapped)).toBe(
      'POST http://127.0.0.1:38111/mcp: Request cannot be constructed from a URL that includes credentials: http://127.0.0.1:38111/mcp: inner',
    );
  });

  it('names an HTTP error status with the first line of the body', () => {
    const error = new SdkHttpError(
      SdkErrorCode.ClientHttpNotImplemented,
      'Error POSTing to endpoint: database is down\nmore',
      { status: 500, statusText: 'Internal Server Error', text: 'database is down\nmore' },
    );
    expect(describeHttpFailure(config, error)).toBe(
      'POST http://127.0.0.1:38111/mcp: HTTP 500 Internal Server Error: database is down',
    );
    const bare = new SdkHttpError(
      SdkErrorCode.ClientHttpFailedToOpenStream,
      'Failed to open SSE stream: ',
      {
        status: 502,
        statusText: '',
      },
    );
    expect(describeHttpFailure(config, bare)).toBe(
      'GET http://127.0.0.1:38111/mcp: HTTP 502 Bad Gateway',
    );
  });

  it('leaves other failures (and stdio servers) alone', () => {
    const oauth = Object.assign(new Error('failed to refresh OAuth tokens: fetch failed'), {
      code: 'oauth_refresh_failed',
      cause: fetchFailed(),
    });
    expect(describeHttpFailure(config, oauth)).toBeNull();
    expect(describeHttpFailure(config, new TypeError('x is not a function'))).toBeNull();
    expect(describeHttpFailure(config, new Error('Connection closed'))).toBeNull();
    const stdio = { transport: { type: 'stdio' } } as unknown as ServerConfig;
    expect(describeHttpFailure(stdio, fetchFailed())).toBeNull();
  });
});
