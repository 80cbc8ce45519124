/**
 * Finding 3 of issue #14: an exec environment (a command prefix such as `docker exec -i ctr`)
 * receives forwarded values on the server's stdin, never in argv, where any local user reads
 * them (`ps`, `/proc/<pid>/cmdline`) for as long as the prefix process lives. The prefix here is
 * a real `sh` that stays alive as the server's parent, as `docker exec` does; while the server
 * runs, the command line of every process in this test's process tree is read.
 */

import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { arr, ECHO_SERVER, NODE, q, tempDir, text } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();

/** Pids of every live descendant of `root`. */
function descendants(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const child of parents.get(pid) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(root);
  return out;
}

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
};

describe('exec environments keep forwarded values out of argv', () => {
  it('no process in the tree has a forwarded value in its command line', async () => {
    const forwarded = `forwarded-${randomBytes(12).toString('hex')}`;
    const literal = `literal-${randomBytes(12).toString('hex')}`;
    const runtime = load(
      [
        '[environments.box]',
        'type = "exec"',
        'program = "sh"',
        // A prefix that stays alive as the server's parent (as `docker exec` does).
        `args = ${arr(['-c', '"$@"; exit $?', 'mcprt-prefix'])}`,
        `cwd = ${q(tempDir())}`,
        '[environments.box.mcp_servers.e]',
        `command = ${q(NODE)}`,
        `args = ${arr([ECHO_SERVER, '--name', 'e'])}`,
        'env_vars = ["EXEC_SECRET"]',
        `env = { LITERAL_SECRET = ${q(literal)}, "odd-name" = ${q(`${literal}\nsecond line`)} }`,
      ].join('\n'),
      { ...process.env, EXEC_SECRET: forwarded },
    );
    const session = runtime.startSession();
    await session.ready();
    const env = async (key: string) =>
      text(await session.callTool({ server: 'e', tool: 'env', arguments: { key } }));
    // The values did arrive.
    expect(await env('EXEC_SECRET')).toBe(forwarded);
    expect(await env('LITERAL_SECRET')).toBe(literal);
    expect(await env('odd-name')).toBe(`${literal}\nsecond line`);

    const lines = descendants(process.pid).map(cmdline);
    expect(lines.some((l) => l.includes('mcprt-prefix'))).toBe(true);
    for (const line of lines) {
      expect(line).not.toContain(forwarded);
      expect(line).not.toContain(literal);
    }
  });
});
