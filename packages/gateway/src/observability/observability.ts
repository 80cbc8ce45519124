/**
 * Health, readiness and metrics of one gateway, served on its HTTP listener (http/listener.ts
 * asks `serve` once before authenticating and once after): `/healthz` is always public (the
 * process answers: 200 `ok`); `/readyz` (readiness.ts) and `/metrics` (metrics.ts, Prometheus
 * text format) need the same credential as `/mcp` unless `[serve] metrics_public = true`. Only
 * GET and HEAD are answered (405 otherwise). Owns the gateway's metrics, so every transport's
 * calls are counted in one registry.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:net';

import type { Session } from '@mcprt/runtime';

import type { OperationTable } from '../operationTable.js';
import { GatewayMetrics } from './metrics.js';
import { readiness } from './readiness.js';
import type { Readiness } from './readiness.js';
import { HttpTraffic } from './traffic.js';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const METRICS_PATH = '/metrics';

export interface ObservabilityOptions {
  /** `[serve] metrics_public`: `/readyz` and `/metrics` answer without a credential. */
  readonly metricsPublic: boolean;
  /** The first listings' startup wait, in ms (readiness without required registrations). */
  readonly settleWaitMs: number;
}

export class Observability {
  readonly metrics: GatewayMetrics;
  private readonly traffic = new HttpTraffic();
  /** When the listener started the registrations (null: no listener yet). */
  private listeningSince: number | null = null;

  constructor(
    private readonly session: Session,
    operations: OperationTable,
    private readonly options: ObservabilityOptions,
  ) {
    this.metrics = new GatewayMetrics({
      statuses: () => session.listStatus(),
      traffic: () => this.traffic.totals(),
    });
    operations.onParked = (scope) => this.metrics.inputRound(scope);
  }

  /** The listener's server: its connections' bytes are counted, readiness timed from now. */
  watch(server: Server): void {
    this.listeningSince ??= Date.now();
    this.traffic.watch(server);
  }

  readiness(): Readiness {
    const since = this.listeningSince;
    const waitOver = since !== null && Date.now() - since >= this.options.settleWaitMs;
    return readiness(this.session.listStatus(), waitOver);
  }

  /**
   * Answer `req` if it is for one of the paths and may be answered (`authenticated`: the
   * listener's authenticator accepted it; `hostAllowed`: its Host may be answered without a
   * credential — on loopback, a name of this machine, so a DNS-rebinding page cannot read
   * `metrics_public` bodies); false: the listener goes on with it.
   */
  serve(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    authenticated: boolean,
    hostAllowed = true,
  ): boolean {
    if (path !== HEALTH_PATH && path !== READY_PATH && path !== METRICS_PATH) return false;
    const open = this.options.metricsPublic && hostAllowed;
    if (path !== HEALTH_PATH && !authenticated && !open) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res
        .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' })
        .end('method not allowed\n');
      return true;
    }
    const head = req.method === 'HEAD';
    if (path === HEALTH_PATH) {
      send(res, 200, 'text/plain; charset=utf-8', 'ok\n', head);
    } else if (path === READY_PATH) {
      const state = this.readiness();
      const body = JSON.stringify(state.ready ? { ready: true } : state);
      send(res, state.ready ? 200 : 503, 'application/json', `${body}\n`, head);
    } else {
      this.metrics.scrape().then(
        (text) => send(res, 200, this.metrics.contentType, text, head),
        () => send(res, 500, 'text/plain', 'metrics unavailable\n', head),
      );
    }
    return true;
  }
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  head: boolean,
): void {
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(head ? undefined : body);
}
