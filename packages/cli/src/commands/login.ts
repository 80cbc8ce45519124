/**
 * `mcprt mcp login <name> [--environment <id>] [--scopes a,b] [--no-browser]
 * [--oauth-client-registration auto|cimd|dcr]` and `mcprt mcp logout <name> [--environment <id>]`.
 * A login listens for the redirect on 127.0.0.1 and tries to open the browser; with
 * `--no-browser` it only prints the URL and also accepts the redirect URL pasted on stdin, so
 * the browser can be on another machine (the page it lands on may fail to load: copy its URL).
 * Texts are Codex's where Codex has them.
 */

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

import type { ClientRegistrationMode, PendingOAuthLogin } from '@mcprt/runtime';

import type { GlobalOptions } from '../args.js';
import { browserCommand } from '../browser.js';
import { parse, UsageError } from '../args.js';
import type { Io } from '../io.js';
import { openRuntime } from '../runtime.js';

const REGISTRATION_MODES: readonly ClientRegistrationMode[] = ['auto', 'cimd', 'dcr'];

export async function loginCommand(
  argv: readonly string[],
  globals: GlobalOptions,
  io: Io,
): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      environment: { type: 'string' },
      scopes: { type: 'string' },
      'no-browser': { type: 'boolean' },
      'oauth-client-registration': { type: 'string' },
      'timeout-sec': { type: 'string' },
    },
    'mcp login',
  );
  const name = positionals[0];
  if (name === undefined || positionals.length > 1) {
    throw new UsageError(
      'usage: mcprt mcp login <name> [--environment <id>] [--scopes a,b] [--no-browser] [--oauth-client-registration auto|cimd|dcr]',
    );
  }
  const mode = values['oauth-client-registration']?.toLowerCase();
  if (mode !== undefined && !REGISTRATION_MODES.includes(mode as ClientRegistrationMode)) {
    throw new UsageError(`mcp login: --oauth-client-registration must be auto, cimd or dcr`);
  }
  const timeoutSec = values['timeout-sec'] === undefined ? 300 : Number(values['timeout-sec']);
  if (!Number.isFinite(timeoutSec) || timeoutSec <= 0) {
    throw new UsageError('mcp login: --timeout-sec must be a positive number');
  }
  const scopes = values.scopes
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const runtime = openRuntime(globals, io);
  try {
    const pending = await runtime.oauthLogin({
      server: name,
      ...(values.environment !== undefined ? { environmentId: values.environment } : {}),
      ...(scopes !== undefined ? { scopes } : {}),
      ...(mode !== undefined ? { clientRegistration: mode as ClientRegistrationMode } : {}),
      timeoutMs: timeoutSec * 1000,
    });
    io.out(
      `Authorize \`${name}\` by opening this URL in your browser:\n${pending.authorizationUrl}`,
    );
    const stopReading = values['no-browser']
      ? readPastedRedirects(pending, io)
      : openBrowser(pending);
    try {
      await pending.completed;
    } finally {
      stopReading();
    }
    io.out(`Successfully logged in to MCP server '${name}'.`);
    return 0;
  } finally {
    await runtime.close();
  }
}

export async function logoutCommand(
  argv: readonly string[],
  globals: GlobalOptions,
  io: Io,
): Promise<number> {
  const { values, positionals } = parse(argv, { environment: { type: 'string' } }, 'mcp logout');
  const name = positionals[0];
  if (name === undefined || positionals.length > 1)
    throw new UsageError('usage: mcprt mcp logout <name> [--environment <id>]');
  const runtime = openRuntime(globals, io);
  try {
    const removed = await runtime.oauthLogout({
      server: name,
      ...(values.environment !== undefined ? { environmentId: values.environment } : {}),
    });
    io.out(
      removed
        ? `Removed OAuth credentials for '${name}'.`
        : `No OAuth credentials stored for '${name}'.`,
    );
    return 0;
  } finally {
    await runtime.close();
  }
}

/** `--no-browser`: every line on stdin is tried as the redirect URL until the login completes. */
function readPastedRedirects(pending: PendingOAuthLogin, io: Io): () => void {
  io.out(
    'After authorizing, paste the URL your browser was redirected to (the page may fail to load) and press Enter:',
  );
  const lines = createInterface({ input: process.stdin, terminal: false });
  lines.on('line', (line) => {
    if (line.trim() === '' || pending.submitRedirectUrl(line)) return;
    io.err(
      'That is not the redirect URL of this login (it needs `code` and the matching `state`). Paste it again:',
    );
  });
  return () => {
    lines.close();
    process.stdin.pause();
  };
}

/**
 * Best effort: the platform's URL opener, without a shell and for http(s) URLs only (browser.ts);
 * the printed URL works without it.
 */
function openBrowser(pending: PendingOAuthLogin): () => void {
  const command = browserCommand(pending.authorizationUrl, process.platform, process.env);
  if (command === null) return () => undefined;
  try {
    const child = spawn(command.file, [...command.args], {
      stdio: 'ignore',
      detached: true,
      shell: false,
      windowsHide: true,
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no opener: the URL was printed
  }
  return () => undefined;
}
