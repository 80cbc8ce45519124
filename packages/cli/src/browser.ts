/**
 * The command that opens an authorization URL in the platform's browser — built without any
 * shell, so nothing in the URL (which a server's authorization endpoint chooses) is ever parsed
 * as a command: on Windows `rundll32.exe url.dll,FileProtocolHandler <url>` by absolute path,
 * never `cmd /c start` (where `&` in the URL ran commands); `open` on macOS; `xdg-open`
 * elsewhere. Only `http:` and `https:` URLs are opened; anything else yields null (the URL is
 * still printed for the person to judge).
 */

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
  const href = parsed.href;
  if (platform === 'win32') {
    const root = env['SystemRoot'] ?? env['SYSTEMROOT'] ?? 'C:\\Windows';
    return {
      file: `${root}\\System32\\rundll32.exe`,
      args: ['url.dll,FileProtocolHandler', href],
    };
  }
  return { file: platform === 'darwin' ? 'open' : 'xdg-open', args: [href] };
}
