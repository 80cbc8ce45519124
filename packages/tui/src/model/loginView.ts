/**
 * `/mcp login` and `/mcp logout` cells as lines: what was asked (`name@env`), then the state —
 * requesting; waiting with the authorization URL to open (wrapped whole under a 4-space indent,
 * so it can be copied) and, when the app-server can take it, how to paste the redirect URL back
 * for a browser on another machine; finishing after a pasted redirect was accepted; logged in /
 * logged out (or nothing to remove); failed with the server's error; or unavailable on this
 * app-server.
 */

import { truncate, wrap } from '../text/fit.js';
import type { Line } from './lines.js';
import { line } from './lines.js';

export interface LoginCell {
  readonly action: 'login' | 'logout';
  /** `name@env` as typed (bare name when no environment was given). */
  readonly target: string;
  readonly state:
    'requesting' | 'waiting' | 'finishing' | 'succeeded' | 'unchanged' | 'failed' | 'unavailable';
  readonly authorizationUrl: string | null;
  /** A pasted redirect URL can complete this login (the app-server gave it a login id). */
  readonly pasteable?: boolean;
  /** Where the browser is sent after authorizing (the URL's `redirect_uri`), when known. */
  readonly redirectUri?: string | null;
  readonly message: string | null;
}

/** The instructions under a waiting login that a pasted redirect URL can complete. */
export function pasteInstructions(redirectUri: string | null | undefined): string {
  const where = redirectUri ? ` (${redirectUri}?…; the page may not load)` : '';
  return `If the browser is on another machine, paste the address it lands on${where} here and press Enter.`;
}

/** The prompt's hint while logins wait for a pasted redirect URL (else undefined). */
export function pasteHint(cells: readonly LoginCell[]): string | undefined {
  const waiting = cells.filter((c) => c.state === 'waiting' && c.pasteable === true);
  if (waiting.length === 0) return undefined;
  const which = waiting.length === 1 ? ` for ${waiting[0]!.target}` : '';
  return `paste the redirect URL${which} and press Enter`;
}

/** A pasted redirect URL as echoed in the transcript: its authorization `code` value hidden. */
export function redactRedirectUrl(text: string): string {
  return text.replace(/([?&#]code=)[^&#\s]*/g, '$1…');
}

export function loginCellLines(cell: LoginCell, width: number): Line[] {
  const verb = cell.action === 'login' ? 'Login' : 'Logout';
  const out: Line[] = [];
  const head = (text: string, tone: Line['tone']) => out.push(line(truncate(text, width), tone));
  switch (cell.state) {
    case 'requesting':
      head(`• ${verb} ${cell.target}`, 'warn');
      head('  └ asking the app-server…', 'dim');
      break;
    case 'waiting':
      head(`• ${verb} ${cell.target}`, 'warn');
      head('  └ waiting for authorization; open this URL:', 'dim');
      break;
    case 'finishing':
      head(`• ${verb} ${cell.target}`, 'warn');
      head('  └ redirect URL received; finishing the login…', 'dim');
      break;
    case 'succeeded':
      head(
        cell.action === 'login'
          ? `• Logged in to ${cell.target}`
          : `• Logged out of ${cell.target}`,
        'ok',
      );
      break;
    case 'unchanged':
    case 'unavailable':
      head(`• ${verb} ${cell.target}`, 'dim');
      break;
    case 'failed':
      head(`• ${verb} ${cell.target} failed`, 'error');
      break;
  }
  if (cell.state === 'waiting' && cell.authorizationUrl !== null) {
    out.push(...wrap(cell.authorizationUrl, width, '    ', '    ').map((t) => line(t, 'accent')));
    if (cell.pasteable === true)
      out.push(
        ...wrap(pasteInstructions(cell.redirectUri), width, '  ').map((t) => line(t, 'dim')),
      );
  }
  if (cell.message !== null) {
    const tone = cell.state === 'failed' ? 'error' : cell.state === 'unavailable' ? 'warn' : 'dim';
    const prefix = cell.state === 'failed' ? 'Error: ' : '';
    out.push(...wrap(`${prefix}${cell.message}`, width, '    ', '    ').map((t) => line(t, tone)));
  }
  return out;
}
