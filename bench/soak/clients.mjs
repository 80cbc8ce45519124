// The soak's clients: `count` MCP SDK clients over HTTP, alternately of the 2025-11-25 era (the
// 2025 handshake, a session) and of 2026-07-28 (`versionNegotiation: auto`), each calling `echo`,
// reading `soak://status` and calling `ask` (answering the question with the nonce it names) on
// random registrations, one operation at a time, until stopped. Every operation is recorded with
// its nonce, timing, outcome and the gateway generation its connection was made to; a transport
// failure drops the connection and the client connects again (the next generation, after the
// gateway's restart). Classification of the records is report.mjs's.
import { performance } from 'node:perf_hooks';

import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const OPS = ['echo', 'echo', 'read', 'ask'];

/** The gateway's name of a tool and URI of the resource of `reg` (docs/gateway.md). */
export function gatewayNames(reg) {
  const prefix = reg.env === null ? reg.server : `${reg.env}__${reg.server}`;
  const scope = reg.env === null ? `thread/${reg.server}` : `env/${reg.env}/${reg.server}`;
  return {
    echo: `${prefix}__echo`,
    ask: `${prefix}__ask`,
    uri: `mcprt://${scope}/soak://status`,
    reply: `${reg.server}-${reg.env ?? 'local'}`,
  };
}

const textOf = (result) =>
  (result?.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

function describe(error) {
  const cause = error?.cause
    ? ` (cause: ${error.cause.code ?? error.cause.message ?? error.cause})`
    : '';
  return `${error?.name ?? 'Error'}: ${error?.message ?? String(error)}${cause}`;
}

export class SoakClients {
  /** `gateway`: the soak's live view {url, token, generation, down}; `regs`: registrations. */
  constructor({ count, gateway, regs, pauseMs }) {
    this.gateway = gateway;
    this.regs = regs;
    this.pauseMs = pauseMs;
    this.records = [];
    /** Questions a client was asked for a nonce that is not one of its calls (must stay empty). */
    this.crossed = [];
    this.connects = 0;
    this.stopping = false;
    this.clients = Array.from({ length: count }, (_, i) => ({
      id: `c${i}`,
      era: i % 2 === 0 ? 'legacy' : 'auto',
      client: null,
      connGen: 0,
      seq: 0,
      inFlight: null,
    }));
  }

  start() {
    this.done = Promise.all(this.clients.map((c) => this.loop(c)));
  }

  /** Operations in flight right now (sampled just before the gateway is killed). */
  inFlight() {
    return this.clients.filter((c) => c.inFlight !== null).map((c) => c.inFlight);
  }

  async stop() {
    this.stopping = true;
    await this.done;
  }

  async loop(c) {
    while (!this.stopping) {
      if (c.client === null) {
        await this.connect(c);
        continue;
      }
      await this.operate(c);
      await sleep(this.pauseMs * (0.5 + Math.random()));
    }
    await this.drop(c);
  }

  async connect(c) {
    const client = new Client(
      { name: `soak-${c.id}`, version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} } },
        ...(c.era === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {}),
      },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      const message = String(request.params?.message ?? '');
      const nonce = /asks (\S+)$/.exec(message)?.[1] ?? '';
      if (c.inFlight?.nonce !== nonce) this.crossed.push({ client: c.id, message });
      return { action: 'accept', content: { answer: `re:${nonce}` } };
    });
    client.onerror = () => undefined;
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(this.gateway.url), {
          requestInit: { headers: { authorization: `Bearer ${this.gateway.token}` } },
        }),
      );
      await client.listTools(); // as a client does; the first listing waits for the servers
      c.client = client;
      c.connGen = this.gateway.down ? -1 : this.gateway.generation;
      this.connects++;
    } catch {
      await client.close().catch(() => undefined);
      await sleep(200);
    }
  }

  async drop(c) {
    const client = c.client;
    c.client = null;
    if (client !== null) await Promise.race([client.close().catch(() => undefined), sleep(1000)]);
  }

  async operate(c) {
    const reg = this.regs[Math.floor(Math.random() * this.regs.length)];
    const op = OPS[Math.floor(Math.random() * OPS.length)];
    const nonce = `${c.id}.${++c.seq}`;
    const names = gatewayNames(reg);
    const rec = { client: c.id, era: c.era, op, label: reg.label, serverEra: reg.era, nonce };
    rec.connGen = c.connGen;
    if (op !== 'read') rec.tool = names[op];
    c.inFlight = rec;
    rec.start = performance.now();
    rec.startedAt = Date.now();
    try {
      if (op === 'read') {
        const result = await c.client.readResource({ uri: names.uri });
        const got = result.contents?.[0]?.text;
        rec.outcome = got === `${names.reply} is up` ? 'ok' : 'wrong';
        if (rec.outcome === 'wrong') rec.text = JSON.stringify(result).slice(0, 500);
      } else {
        const result = await c.client.callTool({ name: names[op], arguments: { nonce } });
        const text = textOf(result);
        const expected =
          op === 'echo'
            ? `${names.reply}: ${nonce}`
            : `${names.reply} asked ${nonce}, got re:${nonce}`;
        const declined = op === 'ask' && text === `${names.reply} asked ${nonce}, declined`;
        rec.outcome = result.isError
          ? 'toolError'
          : text === expected
            ? 'ok'
            : declined
              ? 'declined'
              : 'wrong';
        if (rec.outcome !== 'ok') rec.text = text.slice(0, 500);
      }
    } catch (error) {
      rec.outcome = error instanceof ProtocolError ? 'rpcError' : 'transport';
      rec.text = describe(error).slice(0, 500);
    }
    rec.end = performance.now();
    rec.endedAt = Date.now();
    rec.ms = rec.end - rec.start;
    c.inFlight = null;
    this.records.push(rec);
    if (rec.outcome === 'transport') await this.drop(c);
  }
}
