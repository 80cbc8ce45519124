/**
 * `/mcp login` and `/mcp logout` cells as lines: what was asked (`name@env`), then the state —
 * requesting, waiting with the authorization URL to open, logged in / logged out, failed with
 * the server's error, or unavailable in this build.
 */

import { truncate, wrap } from '../text/fit.js';
import type { Line } from './lines.js';
import { line } from './lines.js';

export interface LoginCell {
  readonly action: 'login' | 'logout';
  /** `name@env` as typed (bare name when no environment was given). */
  readonly target: string;
  readonly state: 'requesting' | 'waiting' | 'succeeded' | 'failed' | 'unavailable';
  readonly authorizationUrl: string | null;
  readonly message: string | null;
}

export function loginCellLines(cell: LoginCell, width: number): Line[] {
  const verb = cell.action === 'login' ? 'Login' : 'Logout';
  const out: Line[] = [];
  switch (cell.state) {
    case 'requesting':
      out.push(line(truncate(`• ${verb} ${cell.target}`, width), 'warn'));
      out.push(line(truncate('  └ asking the app-server…', width), 'dim'));
      break;
    case 'waiting':
      out.push(line(truncate(`• ${verb} ${cell.target}`, width), 'warn'));
      out.push(line(truncate('  └ waiting for authorization; open this URL:', width), 'dim'));
      break;
    case 'succeeded':
      out.push(
        line(
          truncate(
            cell.action === 'login'
              ? `• Logged in to ${cell.target}`
              : `• Logged out of ${cell.target}`,
            width,
          ),
          'ok',
        ),
      );
      break;
    case 'failed':
      out.push(line(truncate(`• ${verb} ${cell.target} failed`, width), 'error'));
      break;
    case 'unavailable':
      out.push(line(truncate(`• ${verb} ${cell.target}`, width), 'dim'));
      break;
  }
  if (cell.state === 'waiting' && cell.authorizationUrl !== null)
    out.push(...wrap(cell.authorizationUrl, width, '    ', '    ').map((t) => line(t, 'accent')));
  if (cell.message !== null) {
    const tone = cell.state === 'failed' ? 'error' : cell.state === 'unavailable' ? 'warn' : 'dim';
    const prefix = cell.state === 'failed' ? 'Error: ' : '';
    out.push(...wrap(`${prefix}${cell.message}`, width, '    ', '    ').map((t) => line(t, tone)));
  }
  return out;
}
