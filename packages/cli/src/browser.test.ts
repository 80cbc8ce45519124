/**
 * Unit tests (issue #14, finding 9): the command that opens an authorization URL is built without
 * a shell — on Windows too, where `cmd /c start "" <url>` let a URL containing `&` run commands —
 * and only for http(s) URLs.
 */

import { describe, expect, it } from 'vitest';

import { browserCommand } from './browser.js';

const HOSTILE = 'https://auth.example.com/authorize?a=1&calc.exe&b="x"|whoami';

describe('browserCommand', () => {
  it('Windows: no cmd.exe; the URL is one argument of rundll32 (no shell parses it)', () => {
    const command = browserCommand(HOSTILE, 'win32', { SystemRoot: 'C:\\Windows' });
    expect(command).toEqual({
      file: 'C:\\Windows\\System32\\rundll32.exe',
      args: ['url.dll,FileProtocolHandler', new URL(HOSTILE).href],
    });
    expect(command!.file.toLowerCase()).not.toContain('cmd');
  });

  it('macOS and Linux: open / xdg-open with the URL as one argument', () => {
    expect(browserCommand(HOSTILE, 'darwin', {})).toEqual({
      file: 'open',
      args: [new URL(HOSTILE).href],
    });
    expect(browserCommand('http://127.0.0.1:8080/a b', 'linux', {})).toEqual({
      file: 'xdg-open',
      args: ['http://127.0.0.1:8080/a%20b'],
    });
  });

  it('anything but an http(s) URL is never opened', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'ms-msdt:/id PCWDiagnostic',
      '\\\\attacker\\share\\x.exe',
      'calc.exe',
      '--help',
      '',
    ]) {
      for (const platform of ['win32', 'darwin', 'linux'] as const) {
        expect(browserCommand(url, platform, {}), `${platform} ${url}`).toBeNull();
      }
    }
  });
});
