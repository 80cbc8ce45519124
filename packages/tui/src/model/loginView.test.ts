/**
 * Login and logout cells rendered through the real `Lines` component at 60 columns: a waiting
 * login that can take a pasted redirect URL (the URL alone under a 4-space indent, so it can be
 * copied whole, then the paste instructions naming the redirect URI), the "finishing" state after
 * an accepted paste, logout results; the prompt's paste hint; the redaction of the authorization
 * code in an echoed redirect URL; and how a server without a method (-32601) becomes an inline
 * message.
 */

import { describe, expect, it } from 'vitest';

import { ErrorCode, ProtocolError } from '@mcprt/sdk';

import { MethodUnavailableError, whenAvailable } from '../controller/optionalMethods.js';
import { expectFits, renderLines, words } from '../testing/render.js';
import type { LoginCell } from './loginView.js';
import { loginCellLines, pasteHint, pasteInstructions, redactRedirectUrl } from './loginView.js';

const REDIRECT = 'http://127.0.0.1:41234/callback';
const URL_TEXT = `https://auth.example.com/authorize?client_id=${'c'.repeat(70)}&redirect_uri=${encodeURIComponent(REDIRECT)}`;

const waiting: LoginCell = {
  action: 'login',
  target: 'web@sandbox',
  state: 'waiting',
  authorizationUrl: URL_TEXT,
  pasteable: true,
  redirectUri: REDIRECT,
  message: null,
};

describe('login cells', () => {
  it('shows the URL whole, then how to paste the redirect URL back', () => {
    const frame = renderLines(loginCellLines(waiting, 60));
    expectFits(frame, 60);
    const rows = frame.split('\n');
    expect(rows.slice(0, 2)).toEqual([
      '• Login web@sandbox',
      '  └ waiting for authorization; open this URL:',
    ]);
    const urlRows = rows.slice(2).filter((r) => r.startsWith('    '));
    expect(urlRows.map((r) => r.trim()).join('')).toBe(URL_TEXT);
    const rest = rows.slice(2 + urlRows.length);
    expect(rest.every((r) => r.startsWith('  ') && !r.startsWith('    '))).toBe(true);
    expect(words(rest.join(' '))).toEqual(words(pasteInstructions(REDIRECT)));
    expect(pasteInstructions(REDIRECT)).toBe(
      `If the browser is on another machine, paste the address it lands on (${REDIRECT}?…; the page may not load) here and press Enter.`,
    );
  });

  it('leaves the paste instructions out when the server cannot take a pasted URL', () => {
    const frame = renderLines(loginCellLines({ ...waiting, pasteable: false }, 60));
    expect(frame).not.toContain('paste');
    expect(
      frame
        .split('\n')
        .slice(2)
        .every((r) => r.startsWith('    ')),
    ).toBe(true);
  });

  it('says when an accepted redirect URL is being redeemed', () => {
    expect(renderLines(loginCellLines({ ...waiting, state: 'finishing' }, 60))).toBe(
      '• Login web@sandbox\n  └ redirect URL received; finishing the login…',
    );
  });

  it('renders logout results with Codex’s texts', () => {
    const logout: LoginCell = {
      action: 'logout',
      target: 'web@sandbox',
      state: 'succeeded',
      authorizationUrl: null,
      message: "Removed OAuth credentials for 'web@sandbox'.",
    };
    expect(renderLines(loginCellLines(logout, 60))).toBe(
      "• Logged out of web@sandbox\n    Removed OAuth credentials for 'web@sandbox'.",
    );
    expect(
      renderLines(
        loginCellLines(
          {
            ...logout,
            state: 'unchanged',
            message: "No OAuth credentials stored for 'web@sandbox'.",
          },
          60,
        ),
      ),
    ).toBe("• Logout web@sandbox\n    No OAuth credentials stored for 'web@sandbox'.");
    const unavailable = renderLines(
      loginCellLines(
        {
          ...logout,
          state: 'unavailable',
          message: 'OAuth logout is not available on this app-server (use `mcprt mcp logout`)',
        },
        60,
      ),
    );
    expectFits(unavailable, 60);
    expect(unavailable).toBe(
      '• Logout web@sandbox\n    OAuth logout is not available on this app-server (use\n    `mcprt mcp logout`)',
    );
  });
});

describe('pasting a redirect URL', () => {
  it('hints at the prompt only while a pasteable login waits', () => {
    expect(pasteHint([])).toBeUndefined();
    expect(pasteHint([waiting])).toBe('paste the redirect URL for web@sandbox and press Enter');
    expect(pasteHint([waiting, { ...waiting, target: 'web' }])).toBe(
      'paste the redirect URL and press Enter',
    );
    expect(pasteHint([{ ...waiting, pasteable: false }])).toBeUndefined();
    expect(pasteHint([{ ...waiting, state: 'finishing' }])).toBeUndefined();
    expect(pasteHint([{ ...waiting, state: 'succeeded' }])).toBeUndefined();
  });

  it('hides the authorization code of an echoed redirect URL, and nothing else', () => {
    expect(redactRedirectUrl(`${REDIRECT}?code=s3cr3t-c0de&state=abc&iss=x`)).toBe(
      `${REDIRECT}?code=…&state=abc&iss=x`,
    );
    expect(redactRedirectUrl(`${REDIRECT}?state=abc&code=s3cr3t`)).toBe(
      `${REDIRECT}?state=abc&code=…`,
    );
    expect(redactRedirectUrl(`${REDIRECT}#code=s3cr3t&state=abc`)).toBe(
      `${REDIRECT}#code=…&state=abc`,
    );
    expect(redactRedirectUrl(`${REDIRECT}?error=access_denied&state=abc`)).toBe(
      `${REDIRECT}?error=access_denied&state=abc`,
    );
    expect(redactRedirectUrl(`${REDIRECT}?my_code=keep`)).toBe(`${REDIRECT}?my_code=keep`);
  });
});

describe('methods a server may lack', () => {
  it('turns -32601 into the feature’s inline message and lets other errors through', async () => {
    const missing = new ProtocolError(
      ErrorCode.MethodNotFound,
      'Method not found: mcpServer/oauth/login/submitRedirect',
    );
    const error = await whenAvailable('submitRedirect', () => Promise.reject(missing)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MethodUnavailableError);
    expect((error as Error).message).toBe(
      'This app-server cannot take a pasted redirect URL: open the authorization URL in a browser on the machine it runs on',
    );
    const invalid = new ProtocolError(ErrorCode.InvalidRequest, 'unknown OAuth login id `x`');
    await expect(whenAvailable('logout', () => Promise.reject(invalid))).rejects.toBe(invalid);
    await expect(
      whenAvailable('logout', () => Promise.resolve({ removed: true })),
    ).resolves.toEqual({ removed: true });
  });
});
