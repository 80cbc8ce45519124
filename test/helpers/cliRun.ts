/**
 * The CLI run in-process, as the CLI tests drive it: `mcprt(home, ...argv)` runs `main.run` with
 * an `Io` that captures what it prints (not a terminal), and answers with the exit code, stdout
 * and stderr.
 */

import type { Io } from '../../packages/cli/src/io.js';
import { run } from '../../packages/cli/src/main.js';

export function capture(): Io & { stdout: () => string; stderr: () => string } {
  let out = '';
  let err = '';
  return {
    out: (t) => void (out += t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => void (err += t.endsWith('\n') ? t : `${t}\n`),
    isTTY: false,
    stdout: () => out,
    stderr: () => err,
  };
}

export async function mcprt(home: string, ...argv: string[]) {
  const io = capture();
  const code = await run(['--home', home, ...argv], io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}
