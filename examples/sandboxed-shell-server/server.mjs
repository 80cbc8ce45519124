#!/usr/bin/env node
// Example MCP server (stdio) that runs shell commands under the host's sandbox, written with
// @mcprt/sandbox-helper. It opts in with the `codex/sandbox-state` capability, so every tool call
// carries the thread's sandbox state and (for local stdio servers) a verified launcher.
//
//   run   {command, args?}  one command through the launcher; returns its exit code and output
//   shell {script}          runs in a long-lived `sh` worker started through the launcher. The
//                           worker is bound to the authority that created it: a call under a
//                           different sandbox state disposes it and starts a new one.
//
// Without a launcher every tool fails closed, unless the operator passes --allow-unsandboxed.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';

import {
  AuthoritySlot,
  readSandboxAuthority,
  requireLauncher,
  SANDBOX_CAPABILITIES,
} from '@mcprt/sandbox-helper';
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const allowUnsandboxed = process.argv.includes('--allow-unsandboxed');
const reply = (value, isError = false) => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value,
  ...(isError ? { isError: true } : {}),
});
const failure = (error) => reply({ error: error.message, code: error.code ?? null }, true);

/** Run one command line to completion. */
function runOnce({ file, args }) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (error) => resolve({ exitCode: null, stdout, stderr: error.message }));
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

/** A long-lived `sh` reading scripts on stdin; each script's end is marked on stdout. */
class ShellWorker {
  static generation = 0;

  constructor(commandLine) {
    this.generation = ++ShellWorker.generation;
    this.sandboxed = commandLine.sandboxed;
    this.child = spawn(commandLine.file, commandLine.args, { stdio: ['pipe', 'pipe', 'inherit'] });
    this.pid = this.child.pid;
    this.buffer = '';
    this.waiting = null;
    this.exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdout.on('data', (d) => {
      this.buffer += d;
      this.waiting?.();
    });
    this.child.once('exit', () => {
      this.dead = true;
      this.waiting?.();
    });
  }

  run(script) {
    const marker = `__done_${randomBytes(6).toString('hex')}__`;
    this.child.stdin.write(`{ ${script}\n} 2>&1\nprintf '\\n%s %s\\n' ${marker} "$?"\n`);
    return new Promise((resolve, reject) => {
      this.waiting = () => {
        const at = this.buffer.indexOf(`\n${marker} `);
        if (at >= 0) {
          const end = this.buffer.indexOf('\n', at + 1 + marker.length);
          if (end < 0) return;
          const exitCode = Number(this.buffer.slice(at + 1 + marker.length + 1, end));
          const output = this.buffer.slice(0, at);
          this.buffer = this.buffer.slice(end + 1);
          this.waiting = null;
          resolve({ exitCode, output });
        } else if (this.dead) {
          this.waiting = null;
          reject(new Error('the shell worker exited'));
        }
      };
      this.waiting();
    });
  }

  async dispose() {
    this.child.stdin.end();
    this.child.kill('SIGTERM');
    await this.exited;
  }
}

const worker = new AuthoritySlot(
  (authority) =>
    new ShellWorker(requireLauncher(authority, { allowUnsandboxed }).command('sh', ['-s'])),
  (shell) => shell.dispose(),
  'the shell worker',
);

const server = new McpServer(
  { name: 'sandboxed-shell', version: '0.1.0' },
  { capabilities: { experimental: { ...SANDBOX_CAPABILITIES } } },
);

server.registerTool(
  'run',
  {
    description: 'Run one command under the sandbox state of this call',
    inputSchema: z.object({ command: z.string(), args: z.array(z.string()).optional() }),
  },
  async ({ command, args }, ctx) => {
    try {
      const authority = readSandboxAuthority(ctx.mcpReq._meta);
      const line = requireLauncher(authority, { allowUnsandboxed }).command(command, args ?? []);
      return reply({ ...(await runOnce(line)), sandboxed: line.sandboxed });
    } catch (error) {
      return failure(error);
    }
  },
);

server.registerTool(
  'shell',
  {
    description: 'Run a script in a long-lived shell bound to the sandbox state of this call',
    inputSchema: z.object({ script: z.string() }),
  },
  async ({ script }, ctx) => {
    try {
      const authority = readSandboxAuthority(ctx.mcpReq._meta);
      const { value: shell, replaced } = await worker.get(authority);
      try {
        const result = await shell.run(script);
        return reply({
          ...result,
          workerPid: shell.pid,
          generation: shell.generation,
          replaced,
          sandboxed: shell.sandboxed,
        });
      } catch (error) {
        worker.clear();
        throw error;
      }
    } catch (error) {
      return failure(error);
    }
  },
);

process.stdin.once('end', () => void worker.close());
await server.connect(new StdioServerTransport());
