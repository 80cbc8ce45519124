/** Unit tests: the command that opens a file mcprt wrote (TUI `/app … open`), and its failure. */

import { describe, expect, it } from 'vitest';

import { fileBrowserCommand } from './browser.js';
import { openFileInBrowser } from './openApp.js';

describe('fileBrowserCommand', () => {
  it('opens an absolute path as a file: URL, with no shell, per platform', () => {
    const path = '/tmp/mcprt-app-x/apps@box.show app.html';
    const url = 'file:///tmp/mcprt-app-x/apps@box.show%20app.html';
    expect(fileBrowserCommand(path, 'linux', {})).toEqual({ file: 'xdg-open', args: [url] });
    expect(fileBrowserCommand(path, 'darwin', {})).toEqual({ file: 'open', args: [url] });
    expect(fileBrowserCommand(path, 'win32', { SystemRoot: 'D:\\Win' })?.file).toBe(
      'D:\\Win\\System32\\rundll32.exe',
    );
  });

  it('refuses a relative path', async () => {
    expect(fileBrowserCommand('app.html', 'linux', {})).toBeNull();
    await expect(openFileInBrowser('app.html')).rejects.toThrow(
      'cannot open app.html: not an absolute path',
    );
  });
});
