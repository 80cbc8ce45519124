/**
 * The command that opens an authorization URL in the platform's browser — built without any
 * shell, so nothing in the URL (which a server's authorization endpoint chooses) is ever parsed
 * as a command: on Windows `rundll32.exe url.dll,FileProtocolHandler <url>` by absolute path,
 * never `cmd /c start` (where `&` in the URL ran commands); `open` on macOS; `xdg-open`
 * elsewhere. Only `http:` and `https:` URLs are opened; anything else yields null (the URL is
 * still printed for the person to judge). `fileBrowserCommand` opens a local file mcprt wrote
 * itself (an MCP App's HTML, TUI `/app … open`) the same way, as a `file:` URL.
 */

import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface BrowserCommand {
  readonly file: string;
  readonly args: readonly string[];
}

export function browserCommand(
  url: string,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): BrowserCommand | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  return opener(parsed.href, platform, env);
}

/** The command that opens the local file at the absolute `path` (null: not absolute). */
export function fileBrowserCommand(
  path: string,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): BrowserCommand | null {
  if (!isAbsolute(path)) return null;
  return opener(pathToFileURL(path).href, platform, env);
}

function opener(href: string, platform: NodeJS.Platform, env: NodeJS.ProcessEnv): BrowserCommand {
  if (platform === 'win32') {
    const root = env['SystemRoot'] ?? env['SYSTEMROOT'] ?? 'C:\\Windows';
    return {
      file: `${root}\\System32\\rundll32.exe`,
      args: ['url.dll,FileProtocolHandler', href],
    };
  }
  return { file: platform === 'darwin' ? 'open' : 'xdg-open', args: [href] };
}
