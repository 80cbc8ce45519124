/**
 * How the TUI's `/app … open` opens the HTML file it wrote: the platform's opener from
 * browser.ts (no shell), detached, its failure reported to the TUI. Never called unless asked.
 */

import { spawn } from 'node:child_process';

import { fileBrowserCommand } from './browser.js';

export function openFileInBrowser(path: string): Promise<void> {
  const command = fileBrowserCommand(path, process.platform, process.env);
  if (command === null)
    return Promise.reject(new Error(`cannot open ${path}: not an absolute path`));
  return new Promise((resolve, reject) => {
    const child = spawn(command.file, [...command.args], {
      stdio: 'ignore',
      detached: true,
      shell: false,
      windowsHide: true,
    });
    child.once('error', (error) =>
      reject(new Error(`cannot open a browser (${command.file}): ${error.message}`)),
    );
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
