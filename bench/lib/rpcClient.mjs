// A lean JSON-RPC-over-JSONL client for app-servers (mcprt's and Codex's): spawns the server,
// matches responses by id, and hands every notification to listeners. Codex's dialect: no
// "jsonrpc" field, server→client requests answered by the caller (elicitation → decline).
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export class RpcClient {
  constructor(command, args, options = {}) {
    this.child = spawn(command, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: options.env ?? process.env,
      cwd: options.cwd ?? process.cwd(),
    });
    this.spawnedAt = performance.now();
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Set();
    this.stderrTail = '';
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        for (const { reject } of this.pending.values()) {
          reject(new Error(`server exited (${code ?? signal}); stderr: ${this.stderrTail}`));
        }
        this.pending.clear();
        resolve();
      });
    });
    this.child.once('error', (error) => {
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    });
    let buffered = '';
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk) => {
      buffered += chunk;
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.trim() !== '') this.onLine(line);
      }
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-4000);
    });
  }

  get pid() {
    return this.child.pid;
  }

  onLine(line) {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    if (msg.method !== undefined && msg.id !== undefined) {
      // A server→client request (elicitation, approvals): decline, as the reference driver does.
      const result = msg.method.includes('elicitation')
        ? { action: 'decline', content: null }
        : undefined;
      this.write(
        result
          ? { id: msg.id, result }
          : { id: msg.id, error: { code: -32601, message: 'not supported by the bench' } },
      );
      return;
    }
    if (msg.method !== undefined) {
      for (const listener of this.listeners) listener(msg);
      return;
    }
    const waiter = this.pending.get(msg.id);
    if (!waiter) return;
    this.pending.delete(msg.id);
    if (msg.error) waiter.reject(new Error(`${waiter.method}: ${JSON.stringify(msg.error)}`));
    else waiter.resolve(msg.result);
  }

  write(message) {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.write(params === undefined ? { method, id } : { method, id, params });
    });
  }

  notify(method, params) {
    this.write(params === undefined ? { method } : { method, params });
  }

  onNotification(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async initialize() {
    const result = await this.request('initialize', {
      clientInfo: { name: 'mcprt-bench', title: 'mcprt bench', version: '0.1.0' },
      capabilities: { experimentalApi: true },
    });
    this.notify('initialized');
    return result;
  }

  /** Close stdin and wait for the exit (SIGKILL after `graceMs`). */
  async close(graceMs = 5000) {
    if (this.exitInfo) return;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
