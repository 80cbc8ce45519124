/**
 * Helpers for the OAuth end-to-end tests: the built CLI as a real process whose output is
 * captured line by line (for the "no token in any output" checks), and config snippets for HTTP
 * servers in named environments.
 */

import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NODE, q, REPO_ROOT } from '../helpers/fixtures.js';
import { CLI } from '../helpers/rpcClient.js';

export class CliProcess {
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(home: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
    this.child = spawn(NODE, [CLI, '--home', home, ...args], {
      cwd: REPO_ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (d: Buffer) => (this.stdout += d.toString()));
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Wait until stdout matches `pattern`; returns the match. */
  async waitForOutput(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = this.stdout.match(pattern);
      if (match) return match;
      if (Date.now() > deadline)
        throw new Error(`no ${pattern} in output:\n${this.stdout}\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  write(text: string): void {
    this.child.stdin.write(text);
  }

  kill(): void {
    this.child.kill('SIGTERM');
  }
}

/** Run the CLI to completion. */
export async function runCli(home: string, args: string[]) {
  const cli = new CliProcess(home, args);
  cli.write('');
  const code = await cli.exited;
  return { code, stdout: cli.stdout, stderr: cli.stderr };
}

/** An exec environment on this machine whose HTTP servers are reached directly. */
export function directEnvironment(id: string): string {
  return `[environments.${id}]\ntype = "exec"\nprogram = "sh"\nargs = ["-c", "exec \\"$@\\"", "sh"]\nhttp = "direct"\n`;
}

export function httpServerTable(table: string, url: string, extra = ''): string {
  return `[${table}]\nurl = ${q(url)}\nstartup_timeout_sec = 10\n${extra}\n`;
}

export function readCredentialsFile(home: string): Record<string, Record<string, unknown>> {
  return JSON.parse(readFileSync(join(home, '.credentials.json'), 'utf8')) as Record<
    string,
    Record<string, unknown>
  >;
}

/** Every secret value in a credentials file (tokens, client secrets). */
export function secretValues(home: string): string[] {
  const out: string[] = [];
  for (const record of Object.values(readCredentialsFile(home))) {
    for (const key of ['access_token', 'refresh_token'])
      if (typeof record[key] === 'string') out.push(record[key]);
    const client = record['client'] as Record<string, unknown> | undefined;
    if (typeof client?.['client_secret'] === 'string') out.push(client['client_secret']);
  }
  return out;
}
