/**
 * Driving real terminals for the TUI's end-to-end tests: tmux sessions of a given size on a
 * private server (socket), keys in with send-keys, the screen out with capture-pane — the
 * visible rows only, or with the scrollback, optionally joined where the terminal wrapped.
 */

import { execFileSync } from 'node:child_process';

import { REPO_ROOT, waitFor } from '../helpers/fixtures.js';

export class Tmux {
  constructor(readonly socket: string) {}

  run(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], {
      encoding: 'utf8',
      cwd: REPO_ROOT,
    });
  }

  /** Start `command` in a detached session of the given size; the pane stays after it exits. */
  session(name: string, columns: number, command: string, env = '', rows = 50): void {
    // Ink draws only a final frame when CI is set; a person's terminal has no CI variable.
    const shell = `env -u CI -u CONTINUOUS_INTEGRATION ${env} ${command}; echo "[exited $?]"; sleep 600`;
    this.run(
      'new-session',
      '-d',
      '-s',
      name,
      '-x',
      String(columns),
      '-y',
      String(rows),
      '-c',
      REPO_ROOT,
      shell,
    );
  }

  /** The pane with its scrollback; `joined` undoes the terminal's own wrapping of long lines. */
  capture(name: string, joined = false): string {
    return tidy(
      this.run('capture-pane', '-p', ...(joined ? ['-J'] : []), '-S', '-2000', '-t', name),
    );
  }

  /** Only what is on the screen now: the pane's visible rows. */
  screen(name: string): string {
    return tidy(this.run('capture-pane', '-p', '-t', name));
  }

  /** Type `text` literally, then Enter. */
  send(name: string, text: string): void {
    this.run('send-keys', '-t', name, '-l', text);
    this.run('send-keys', '-t', name, 'Enter');
  }

  /** Named keys (`Enter`, `Tab`, `BSpace`, `Escape`…). */
  keys(name: string, ...keys: string[]): void {
    this.run('send-keys', '-t', name, ...keys);
  }

  async waitFor(
    name: string,
    check: (pane: string) => boolean,
    what: string,
    timeoutMs = 45_000,
    view: 'capture' | 'screen' = 'capture',
  ): Promise<string> {
    const read = () => (view === 'screen' ? this.screen(name) : this.capture(name));
    try {
      return await waitFor(() => (check(read()) ? read() : undefined), timeoutMs, what);
    } catch (error) {
      throw new Error(`${(error as Error).message}; the pane shows:\n${read()}`);
    }
  }

  kill(): void {
    try {
      this.run('kill-server');
    } catch {
      // Already gone.
    }
  }
}

function tidy(text: string): string {
  return text
    .replace(/\s+$/, '')
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .join('\n');
}

/** The demo's /mcp view has settled: every registration with its final status, the prompt. */
export const settled = (pane: string): boolean =>
  pane.includes('  • everything: connected') &&
  pane.includes('  • shared: connected') &&
  pane.includes('  • shared@sandbox: connected') &&
  pane.includes('  • shared@buildbox: connected') &&
  pane.includes('  • broken@buildbox: failed') &&
  /\n›\s*$/.test(pane);
