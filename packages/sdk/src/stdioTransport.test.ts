import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

import { defaultAppServerCommand, StdioTransport } from './stdioTransport.js';

const PEER = fileURLToPath(new URL('../test-fixtures/peer.mjs', import.meta.url));

const transports: StdioTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
});

async function startPeer(extra: Partial<ConstructorParameters<typeof StdioTransport>[0]> = {}) {
  const messages: unknown[] = [];
  const errors: Error[] = [];
  const stderr: string[] = [];
  const transport = new StdioTransport({
    args: [PEER],
    onStderr: (line) => stderr.push(line),
    ...extra,
  });
  transports.push(transport);
  transport.onMessage((message) => messages.push(message));
  transport.onError((error) => errors.push(error));
  await transport.start();
  return { transport, messages, errors, stderr };
}

const waitFor = async (predicate: () => boolean, ms = 5000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

const toolCall = (id: number, tool: string, args: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'mcpServer/tool/call',
  params: { threadId: 't', server: 's', tool, arguments: args },
});

const isAnswerTo = (id: number) => (m: unknown) => (m as { id?: unknown }).id === id;

describe('StdioTransport', () => {
  it('runs node <@mcprt/cli>/dist/main.js app-server by default', () => {
    const { command, args } = defaultAppServerCommand();
    expect(command).toBe(process.execPath);
    expect(args[0]).toMatch(/cli[\\/]dist[\\/]main\.js$/);
    expect(args[1]).toBe('app-server');
  });

  it('exchanges JSONL messages with the child', async () => {
    const { transport, messages } = await startPeer();
    transport.send(toolCall(1, 'echo', { text: 'hi' }));
    await waitFor(() => messages.some(isAnswerTo(1)));
    expect(messages.find(isAnswerTo(1))).toEqual({
      id: 1,
      result: { content: [{ type: 'text', text: 'hi' }] },
    });
  });

  it('reassembles a message written in pieces split inside a UTF-8 character', async () => {
    const { transport, messages } = await startPeer();
    transport.send(toolCall(1, 'chunked'));
    await waitFor(() => messages.some(isAnswerTo(1)));
    expect(messages.find(isAnswerTo(1))).toMatchObject({
      result: { content: [{ text: 'héllo wörld ✓' }] },
    });
  });

  it('reports a line that is not JSON and keeps reading', async () => {
    const { transport, messages, errors } = await startPeer();
    transport.send(toolCall(1, 'garbage'));
    await waitFor(() => messages.some(isAnswerTo(1)));
    expect(errors.map((e) => e.message)).toEqual([
      'app-server sent a line that is not JSON: "this is not json"',
    ]);
  });

  it('drops a line over maxLineBytes and keeps reading', async () => {
    const { transport, messages, errors } = await startPeer({ maxLineBytes: 1000 });
    transport.send(toolCall(1, 'oversize', { bytes: 5000 }));
    await waitFor(() => messages.some(isAnswerTo(1)));
    expect(errors[0]?.message).toMatch(/line of \d+ bytes or more; dropped it/);
  });

  it('passes stderr lines to onStderr', async () => {
    const { transport, messages, stderr } = await startPeer();
    transport.send(toolCall(1, 'stderr', { text: 'warming up' }));
    await waitFor(() => messages.some(isAnswerTo(1)));
    expect(stderr).toContain('warming up');
  });

  it('kills the child on close and closes without an error', async () => {
    const { transport } = await startPeer();
    const pid = transport.pid;
    expect(pid).toBeTypeOf('number');
    const closes: (Error | undefined)[] = [];
    transport.onClose((error) => closes.push(error));
    await transport.close();
    expect(closes).toEqual([undefined]);
    expect(() => process.kill(pid as number, 0)).toThrow(/ESRCH/);
    expect(() => transport.send({})).toThrow(/transport is closed/);
  });

  it('SIGKILLs a child that ignores SIGTERM', async () => {
    const script =
      "process.on('SIGTERM', () => {}); console.log('{\"ready\":true}'); setInterval(() => {}, 1000);";
    const { transport, messages } = await startPeer({ args: ['-e', script], killTimeoutMs: 100 });
    await waitFor(() => messages.length > 0);
    const closes: (Error | undefined)[] = [];
    transport.onClose((error) => closes.push(error));
    const started = Date.now();
    await transport.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(closes).toEqual([undefined]);
    expect(() => process.kill(transport.pid as number, 0)).toThrow(/ESRCH/);
  });

  it('reports an unexpected exit with the exit code and the last stderr lines', async () => {
    const { transport } = await startPeer();
    const closed = new Promise<Error | undefined>((resolve) => transport.onClose(resolve));
    transport.send(toolCall(1, 'exit', { code: 3 }));
    const error = await closed;
    expect(error?.message).toMatch(
      /^app-server process exited with code 3; stderr:\npeer exiting$/,
    );
  });

  it('rejects start() when the command cannot be spawned', async () => {
    const transport = new StdioTransport({ command: '/nonexistent/mcprt-app-server' });
    const closes: (Error | undefined)[] = [];
    transport.onClose((error) => closes.push(error));
    await expect(transport.start()).rejects.toThrow(
      /could not start \/nonexistent\/mcprt-app-server: .*ENOENT/,
    );
    expect(closes).toHaveLength(1);
    await transport.close();
  });

  it('runs the given command with cwd and env', async () => {
    const script =
      'console.log(JSON.stringify({ cwd: process.cwd(), v: process.env.MCPRT_X ?? null }))';
    const { messages } = await startPeer({
      args: ['-e', script],
      cwd: '/',
      env: { MCPRT_X: 'yes' },
    });
    await waitFor(() => messages.length > 0);
    expect(messages[0]).toEqual({ cwd: '/', v: 'yes' });
  });
});
