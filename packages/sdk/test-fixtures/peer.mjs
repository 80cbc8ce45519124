// A scripted JSON-RPC peer standing in for the app-server in the SDK's tests. Run directly it
// speaks JSONL on stdin/stdout (Codex style: no "jsonrpc" member unless a scenario adds one);
// imported, `createPeer` drives the same script over any channel (the tests' WebSocket server).
//
// `mcpServer/tool/call` picks a scenario by `tool`:
//   echo       -> {content:[{type:'text', text: arguments.text}]} after arguments.delayMs (default 0)
//   fail       -> error {code:-32603, message:"unknown MCP server 'x'", data:{server:'x'}}
//   hang       -> never answers
//   progress   -> item/started, 2x item/mcpToolCall/progress, an unknown notification, item/completed, then a result
//   ask        -> sends server request arguments.method (params arguments.params), returns its response
//   garbage    -> writes a line that is not JSON and an invalid message, then answers
//   oversize   -> writes a line of arguments.bytes bytes, then answers
//   chunked    -> writes its (multi-byte) answer in three pieces, split inside a UTF-8 sequence
//   stderr     -> writes arguments.text to stderr, then answers
//   exit       -> writes "peer exiting" to stderr and exits with arguments.code
//   received   -> answers with every message received so far (structuredContent.messages)
//   foreignId  -> answers a request id that was never sent, then answers
//   pid        -> answers with the peer's process id (structuredContent.pid)
import { fileURLToPath } from 'node:url';

/**
 * @param {{ send(message: object): void, sendRaw(text: string): void,
 *           sendChunks?(pieces: Buffer[]): void, stderr(text: string): void, exit(code: number): void }} io
 */
export function createPeer(io) {
  const received = [];
  const waiting = new Map();
  let nextServerId = 0;
  const text = (t) => ({ content: [{ type: 'text', text: t }] });
  const result = (id, value) => io.send({ id, result: value });
  const notify = (method, params, extra = {}) =>
    io.send({ method, params, emittedAtMs: Date.now(), ...extra });

  function askClient(method, params) {
    const id = nextServerId++;
    io.send({ id, method, params });
    return new Promise((resolve) => waiting.set(id, resolve));
  }

  async function toolCall(id, params) {
    const args = params.arguments ?? {};
    switch (params.tool) {
      case 'echo':
        if (args.delayMs) await new Promise((r) => setTimeout(r, args.delayMs));
        return result(id, text(String(args.text)));
      case 'fail':
        return io.send({
          id,
          error: { code: -32603, message: "unknown MCP server 'x'", data: { server: 'x' } },
        });
      case 'hang':
        return undefined;
      case 'progress': {
        const base = { threadId: params.threadId, turnId: 't1' };
        const item = {
          type: 'mcpToolCall',
          id: 'call-1',
          server: params.server,
          tool: 'progress',
          status: 'inProgress',
          arguments: args,
          environmentId: null,
        };
        notify('item/started', { ...base, item, startedAtMs: 1 });
        notify(
          'item/mcpToolCall/progress',
          { ...base, itemId: 'call-1', message: 'half' },
          { jsonrpc: '2.0' },
        );
        notify('item/mcpToolCall/progress', { ...base, itemId: 'call-1', message: 'done' });
        notify('thread/status/changed', { threadId: params.threadId, status: { type: 'idle' } });
        notify('item/completed', {
          ...base,
          item: { ...item, status: 'completed' },
          completedAtMs: 2,
        });
        return result(id, text('progressed'));
      }
      case 'ask': {
        const response = await askClient(args.method, args.params);
        return result(id, { ...text('asked'), structuredContent: { response } });
      }
      case 'garbage':
        io.sendRaw('this is not json');
        io.send({ jsonrpc: '1.0', method: 'weird' });
        return result(id, text('after garbage'));
      case 'oversize':
        io.sendRaw(`"${'x'.repeat(args.bytes)}"`);
        return result(id, text('after oversize'));
      case 'chunked': {
        const line = Buffer.from(`${JSON.stringify({ id, result: text('héllo wörld ✓') })}\n`);
        const cut = line.indexOf(Buffer.from('✓')) + 1;
        if (!io.sendChunks) return result(id, text('héllo wörld ✓'));
        return io.sendChunks([line.subarray(0, 5), line.subarray(5, cut), line.subarray(cut)]);
      }
      case 'stderr':
        io.stderr(String(args.text));
        return result(id, text('wrote stderr'));
      case 'exit':
        io.stderr('peer exiting');
        return io.exit(Number(args.code ?? 0));
      case 'received':
        return result(id, { ...text('received'), structuredContent: { messages: received } });
      case 'pid':
        return result(id, { ...text('pid'), structuredContent: { pid: process.pid } });
      case 'foreignId':
        io.send({ id: 999_999, result: {} });
        return result(id, text('after foreign id'));
      default:
        return io.send({ id, error: { code: -32602, message: `no scenario ${params.tool}` } });
    }
  }

  function receive(message) {
    received.push(message);
    if (message.method === undefined) {
      const resolve = waiting.get(message.id);
      waiting.delete(message.id);
      resolve?.(message);
      return;
    }
    if (message.id === undefined) return; // notifications (`initialized`) are only recorded
    switch (message.method) {
      case 'initialize':
        notify('remoteControl/status/changed', { status: 'disabled' });
        return result(message.id, {
          userAgent: `${message.params.clientInfo.name}/0.0.0 (peer)`,
          codexHome: '/tmp/peer-home',
          platformFamily: 'unix',
          platformOs: 'linux',
        });
      case 'environment/list':
        return result(message.id, { data: [] });
      case 'mcpServer/tool/call':
        return void toolCall(message.id, message.params);
      default:
        return io.send({
          id: message.id,
          error: {
            code: -32600,
            message: `Invalid request: unknown variant \`${message.method}\``,
          },
        });
    }
  }

  return { receive };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const peer = createPeer({
    send: (message) => process.stdout.write(`${JSON.stringify(message)}\n`),
    sendRaw: (line) => process.stdout.write(`${line}\n`),
    sendChunks: (pieces) => {
      pieces.forEach((piece, i) => setTimeout(() => process.stdout.write(piece), i * 20));
    },
    stderr: (line) => process.stderr.write(`${line}\n`),
    exit: (code) => process.exit(code),
  });
  let buffer = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim()) peer.receive(JSON.parse(line));
    }
  });
  process.stdin.on('end', () => process.exit(0));
  process.on('SIGTERM', () => {
    process.stderr.write('peer got SIGTERM\n');
    process.exit(0);
  });
}
