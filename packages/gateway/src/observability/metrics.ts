/**
 * The gateway's Prometheus metrics (`/metrics`, endpoints.ts), in a prom-client Registry of its
 * own — never the global one, so tests and several gateways in one process never collide. Calls
 * are counted where the gateway runs them (toolCall.ts, shared by the SDK handler and the stdio
 * fast path) in plain numbers per registration (`ScopeTally`): a call costs two integer updates
 * and, on settling, one more and its duration pushed on a list; prom-client sees them when
 * scraped (its `collect`), or every `PENDING_LIMIT` durations — so the call path never runs
 * prom-client's label hashing and bucket search. Registrations by state, restarts,
 * input-required rounds and listener bytes are read from their owners when scraped. Labels are registration names and fixed words only:
 * never argument values, callers or tokens.
 */

import { performance } from 'node:perf_hooks';

import { scopeKey } from '@mcprt/runtime';
import type { RegistrationScope, ServerStatus } from '@mcprt/runtime';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** How a call ended: the `outcome` label of `mcprt_tool_calls_total`. */
export type CallOutcome = 'ok' | 'tool_error' | 'error' | 'cancelled' | 'refused';

export const CALL_OUTCOMES: readonly CallOutcome[] = [
  'ok',
  'tool_error',
  'error',
  'cancelled',
  'refused',
];

/** The `state` label of `mcprt_registrations`: a startup state, or `disabled`. */
export const REGISTRATION_STATES = [
  'starting',
  'ready',
  'failed',
  'cancelled',
  'disabled',
] as const;

/** Seconds: from a fast local call to a long-running tool. */
export const CALL_DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300,
];

/** What the scrape-time metrics read. */
export interface MetricsSource {
  statuses(): readonly ServerStatus[];
  /** Bytes received and sent on the HTTP listener's connections so far. */
  traffic(): { readonly received: number; readonly sent: number };
}

/** What the call path sees: cheap to call per tool call. */
export interface CallMetrics {
  /** Count a started call; its outcome is recorded when `call` settles (`cancel`: its own). */
  track(scope: RegistrationScope, call: Promise<unknown>, cancel: Cancellation): void;
  /** A call the gateway refused (the caller's view or policy leaves the tool out). */
  refused(scope: RegistrationScope): void;
}

/** A call's cancellation as it stands when the call settles (the runtime's CallCancel). */
export interface Cancellation {
  readonly aborted: boolean;
}

const SCOPE_LABELS = ['server', 'environment'] as const;
type ScopeLabel = (typeof SCOPE_LABELS)[number];

/** The call counts of one registration, made on its first call. */
interface ScopeTally {
  readonly labels: Record<ScopeLabel, string>;
  inFlight: number;
  readonly outcomes: Record<CallOutcome, number>;
  /** Durations (seconds) not yet observed by the histogram. */
  readonly pending: number[];
}

/** Durations kept for the histogram before they are observed without a scrape. */
const PENDING_LIMIT = 256;

/** The labels of a registration: its name, and its environment (empty: thread-wide). */
export function scopeLabels(scope: RegistrationScope): Record<ScopeLabel, string> {
  return { server: scope.name, environment: scope.environmentId ?? '' };
}

export class GatewayMetrics implements CallMetrics {
  readonly registry = new Registry();
  private readonly duration: Histogram<ScopeLabel>;
  private readonly rounds: Counter<ScopeLabel>;
  private readonly tallies = new Map<string, ScopeTally>();

  constructor(source: MetricsSource) {
    const registers = [this.registry];
    const tallies = this.tallies;
    new Counter({
      name: 'mcprt_tool_calls_total',
      help: 'Tool calls the gateway ran, by registration and outcome.',
      labelNames: [...SCOPE_LABELS, 'outcome'],
      registers,
      collect() {
        this.reset();
        for (const tally of tallies.values()) {
          for (const outcome of CALL_OUTCOMES) {
            const count = tally.outcomes[outcome];
            if (count > 0) this.inc({ ...tally.labels, outcome }, count);
          }
        }
      },
    });
    const flush = (tally: ScopeTally) => this.flush(tally);
    this.duration = new Histogram({
      name: 'mcprt_tool_call_duration_seconds',
      help: 'Duration of the tool calls the gateway ran (input-required rounds included).',
      labelNames: SCOPE_LABELS,
      buckets: CALL_DURATION_BUCKETS,
      registers,
      collect() {
        for (const tally of tallies.values()) flush(tally);
      },
    });
    new Gauge({
      name: 'mcprt_tool_calls_in_flight',
      help: 'Tool calls running now.',
      labelNames: SCOPE_LABELS,
      registers,
      collect() {
        this.reset();
        for (const tally of tallies.values()) this.set(tally.labels, tally.inFlight);
      },
    });
    this.rounds = new Counter({
      name: 'mcprt_input_required_rounds_total',
      help: 'Rounds a call was parked for the client to answer an elicitation.',
      labelNames: SCOPE_LABELS,
      registers,
    });
    new Gauge({
      name: 'mcprt_registrations',
      help: 'Registrations (configured MCP servers) by startup state.',
      labelNames: ['state'],
      registers,
      collect() {
        const counts = new Map<string, number>(REGISTRATION_STATES.map((s) => [s, 0]));
        for (const status of source.statuses()) {
          const state = status.startupStatus ?? 'disabled';
          counts.set(state, (counts.get(state) ?? 0) + 1);
        }
        for (const [state, count] of counts) this.set({ state }, count);
      },
    });
    new Counter({
      name: 'mcprt_server_restarts_total',
      help: 'Automatic restarts of a registration after its server crashed.',
      labelNames: SCOPE_LABELS,
      registers,
      collect() {
        this.reset();
        for (const status of source.statuses())
          this.inc(scopeLabels(status.scope), status.restartCount);
      },
    });
    const bytes = (direction: 'received' | 'sent', help: string) =>
      new Counter({
        name: `mcprt_http_${direction}_bytes_total`,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(source.traffic()[direction]);
        },
      });
    bytes(
      'received',
      "Bytes received on the HTTP listener's connections (headers and TLS included).",
    );
    bytes('sent', "Bytes sent on the HTTP listener's connections (headers and TLS included).");
  }

  track(scope: RegistrationScope, call: Promise<unknown>, cancel: Cancellation): void {
    const tally = this.tallyOf(scope);
    tally.inFlight += 1;
    const started = performance.now();
    const done = (outcome: CallOutcome) => {
      tally.inFlight -= 1;
      tally.outcomes[outcome] += 1;
      if (tally.pending.push((performance.now() - started) / 1000) >= PENDING_LIMIT) {
        this.flush(tally);
      }
    };
    call.then(
      (result) => done(isToolError(result) ? 'tool_error' : 'ok'),
      () => done(cancel.aborted ? 'cancelled' : 'error'),
    );
  }

  refused(scope: RegistrationScope): void {
    this.tallyOf(scope).outcomes.refused += 1;
  }

  /** One input-required round of a call to `scope`. */
  inputRound(scope: RegistrationScope): void {
    this.rounds.inc(scopeLabels(scope));
  }

  /** The text exposition format. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Give the histogram a registration's durations not yet observed. */
  private flush(tally: ScopeTally): void {
    if (tally.pending.length === 0) return;
    const child = this.duration.labels(tally.labels);
    for (const seconds of tally.pending) child.observe(seconds);
    tally.pending.length = 0;
  }

  private tallyOf(scope: RegistrationScope): ScopeTally {
    const key = scopeKey(scope);
    let tally = this.tallies.get(key);
    if (tally === undefined) {
      const outcomes = Object.fromEntries(CALL_OUTCOMES.map((o) => [o, 0]));
      tally = {
        labels: scopeLabels(scope),
        inFlight: 0,
        outcomes: outcomes as Record<CallOutcome, number>,
        pending: [],
      };
      this.tallies.set(key, tally);
    }
    return tally;
  }
}

function isToolError(result: unknown): boolean {
  return (
    typeof result === 'object' &&
    result !== null &&
    (result as { isError?: unknown }).isError === true
  );
}
