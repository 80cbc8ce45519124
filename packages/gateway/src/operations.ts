/**
 * Requests the gateway forwards to one registration (`tools/call`, `resources/read`,
 * `prompts/get`) as *operations*: the runtime call runs once, and the gateway's client is served
 * in rounds. A round waits until the call settles (its result is the answer) or the asking server
 * elicits (the round answers `input_required`, with the elicitations and the operation's token as
 * `requestState`). The client's answers arrive with the next round — a retried request on the
 * 2026-07-28 era, the SDK's in-process re-entry on the 2025 era — and go back to the elicitations
 * that asked, so an answer only ever reaches the scope that asked for it.
 *
 * Which operation an elicitation belongs to (`OperationTable.forElicitation`): when the gateway
 * serves several clients (HTTP), each operation's runtime call runs with the operation as its
 * origin (the runtime's `withCallOrigin`), and the elicitation names it whenever the protocol
 * links the two (2026-07-28 servers, 2025 HTTP servers). A 2025 stdio server's request carries no
 * link: it goes to the oldest unfinished operation of the asking registration only when every
 * such operation belongs to the same client; otherwise it is declined — never shown to a client
 * that did not cause it. Between rounds an operation is parked: if no round comes back within
 * the input timeout it is cancelled (the underlying call is aborted).
 */

import { randomBytes } from 'node:crypto';

import { CallCancel, withCallOrigin } from '@mcprt/runtime';
import type { ElicitationRequest, ElicitationResponse, RegistrationScope } from '@mcprt/runtime';

export interface ProgressUpdate {
  readonly progress: number;
  readonly total?: number | undefined;
  readonly message?: string | undefined;
}

/** Which elicitation modes the gateway's client can answer (from its declared capabilities). */
export interface ElicitationModes {
  readonly form: boolean;
  readonly url: boolean;
}

export interface RoundInput {
  /**
   * The round's request signal: aborting it while the round runs cancels the operation. None:
   * the caller cancels the operation itself (the stdio fast path, which keeps no signal per call).
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * True when one request spans every round (2025: the SDK's shim re-enters the handler in
   * process), so its cancellation also cancels the operation between rounds. A 2026-07-28 round
   * is a request of its own, whose signal may fire once it has been answered (HTTP instances
   * close after their exchange): it only counts while the round runs.
   */
  readonly spansRounds: boolean;
  readonly modes: ElicitationModes;
  /** The client's answers to the previous round's elicitations, by the keys they were asked under. */
  readonly answers?: ReadonlyMap<string, ElicitationResponse>;
  /** Where this round's progress goes (none: progress is not forwarded during it). */
  readonly progress?: ((update: ProgressUpdate) => void) | undefined;
}

export type RoundOutcome<T> =
  | { readonly kind: 'done'; readonly value: T }
  | { readonly kind: 'failed'; readonly error: unknown }
  | {
      readonly kind: 'input';
      readonly token: string;
      readonly requests: ReadonlyMap<string, ElicitationRequest>;
    };

/** Where a round's outcome goes (`Operation.serveRound`). */
export interface RoundListener<T> {
  roundEnded(outcome: RoundOutcome<T>): void;
}

type Settled<T> = { kind: 'done'; value: T } | { kind: 'failed'; error: unknown };

interface Pending {
  readonly request: ElicitationRequest;
  readonly resolve: (response: ElicitationResponse) => void;
}

const CANCEL: ElicitationResponse = { action: 'cancel' };
const NO_MODES: ElicitationModes = { form: false, url: false };
const DECLINE: ElicitationResponse = { action: 'decline' };

/** What an operation tells its table (OperationTable): no closures per operation. */
export interface OperationOwner {
  /** Calls run with their operation as origin (the gateway serves several clients). */
  readonly attributing: boolean;
  /** Starts every token this table mints: the replica's id (http/replicaForward.ts), or ''. */
  readonly tokenPrefix: string;
  finished(operation: Operation<unknown>): void;
  parked(operation: Operation<unknown>): void;
}

/**
 * Who started an operation: one object per client connection (a stdio connection, a 2025 HTTP
 * session) or per 2026-07-28 request, and the caller's key — only the same caller may resume it.
 */
export interface OperationClient {
  readonly callerKey: string;
}

/**
 * Start the runtime call. `cancel` is the operation's cancellation: a tool call passes it as the
 * call's signal as it stands (no `AbortSignal` per call, ADR 0023); a request that takes only an
 * `AbortSignal` passes `cancel.signal` (made on first use).
 */
export type RunCall<T> = (
  cancel: CallCancel,
  onProgress: (update: ProgressUpdate) => void,
) => Promise<T>;

const NO_ANSWERS: ReadonlyMap<string, ElicitationResponse> = new Map();

/**
 * One operation. Its fields are `declare`d and assigned in the constructor (no class-field
 * initializers per call, as the runtime's `FastCall`, ADR 0023), and what only elicitations and
 * request signals need (queues, undo lists, the wake-up closures) is made when first needed.
 */
export class Operation<T> {
  declare readonly scope: RegistrationScope;
  /** What the client asked for (e.g. the tool name): a resumed round must ask for the same. */
  declare readonly subject: string;
  declare readonly client: OperationClient;
  declare private readonly owner: OperationOwner;
  declare private readonly parkTimeoutMs: number;
  declare private tokenValue: string | null;
  declare private readonly cancellation: CallCancel;
  declare private settled: Settled<T> | null;
  /** Elicitations waiting for a round, and those asked in the last one (null: none yet). */
  declare private queued: Pending[] | null;
  declare private asked: Map<string, Pending> | null;
  declare private asks: number;
  declare private modes: ElicitationModes;
  declare private progressSink: ((update: ProgressUpdate) => void) | undefined;
  declare private parkTimer: NodeJS.Timeout | undefined;
  /** Undo of every request signal linked to the operation (null: none). */
  declare private unlinks: (() => void)[] | null;
  /** The round being served: where its outcome goes, and its signal's undo. */
  declare private roundDone: RoundListener<T> | null;
  declare private roundUnlink: (() => void) | null;
  declare private roundSpans: boolean;
  /** The round was woken by an elicitation and waits a turn for its siblings. */
  declare private roundGathering: boolean;

  constructor(
    scope: RegistrationScope,
    subject: string,
    run: RunCall<T>,
    client: OperationClient,
    owner: OperationOwner,
    parkTimeoutMs: number,
  ) {
    this.scope = scope;
    this.subject = subject;
    this.client = client;
    this.owner = owner;
    this.parkTimeoutMs = parkTimeoutMs;
    this.tokenValue = null;
    this.cancellation = new CallCancel();
    this.settled = null;
    this.queued = null;
    this.asked = null;
    this.asks = 0;
    this.modes = NO_MODES;
    this.progressSink = undefined;
    this.parkTimer = undefined;
    this.unlinks = null;
    this.roundDone = null;
    this.roundUnlink = null;
    this.roundSpans = false;
    this.roundGathering = false;
    let running: Promise<T>;
    try {
      const onProgress = (update: ProgressUpdate) => this.progressSink?.(update);
      running = owner.attributing
        ? withCallOrigin(this, () => run(this.cancellation, onProgress))
        : run(this.cancellation, onProgress);
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
      (value) => this.settle({ kind: 'done', value }),
      (error: unknown) => this.settle({ kind: 'failed', error }),
    );
  }

  get finished(): boolean {
    return this.settled !== null;
  }

  /**
   * Unguessable: it is the `requestState` a client echoes to resume this operation. Minted on
   * the first input round only (most calls never need one). Behind a load balancer it starts
   * with this replica's id, so the replica a retry lands on knows which one holds the operation.
   */
  get token(): string {
    this.tokenValue ??= this.owner.tokenPrefix + randomBytes(18).toString('base64url');
    return this.tokenValue;
  }

  /** The token if one was minted (the operation was parked at least once). */
  get mintedToken(): string | null {
    return this.tokenValue;
  }

  /** An elicitation of this operation's server: answered by the client in a later round. */
  offer(request: ElicitationRequest): Promise<ElicitationResponse> {
    const supported = request.mode === 'url' ? this.modes.url : this.modes.form;
    if (!supported || this.settled !== null) return Promise.resolve(DECLINE);
    return new Promise((resolve) => {
      const entry: Pending = { request, resolve };
      (this.queued ??= []).push(entry);
      request.signal.addEventListener('abort', () => this.withdraw(entry), { once: true });
      this.wake();
    });
  }

  /** Serve one round of the client's request. */
  round(input: RoundInput): Promise<RoundOutcome<T>> {
    return new Promise((resolve) => this.serveRound(input, { roundEnded: resolve }));
  }

  /**
   * Serve one round, its outcome to `done`: when the call settles (its result or failure), or
   * once the server has asked for input (the round answers the elicitations raised until the
   * next turn of the event loop, so those raised together share it). The listener form spares
   * the stdio fast path the promise hops (and the closures) of `round`.
   */
  serveRound(input: RoundInput, done: RoundListener<T>): void {
    clearTimeout(this.parkTimer);
    this.modes = input.modes;
    this.progressSink = input.progress;
    this.roundUnlink = input.signal === undefined ? null : this.link(input.signal);
    this.roundSpans = input.spansRounds;
    this.roundDone = done;
    this.deliver(input.answers ?? NO_ANSWERS);
    if (this.settled !== null || this.queued?.length) queueMicrotask(() => this.wake());
  }

  /**
   * A request that takes over the operation between rounds (the SDK request the stdio fast path
   * handed it to): while the operation runs, that request's cancellation cancels it.
   */
  adopt(signal: AbortSignal): void {
    if (this.settled === null) this.link(signal);
  }

  /** Abort the underlying call; pending elicitations are answered `cancel`. */
  cancel(reason: unknown): void {
    if (!this.cancellation.aborted) this.cancellation.abort(reason);
    this.cancelElicitations();
  }

  private settle(outcome: Settled<T>): void {
    if (this.settled !== null) return;
    this.settled = outcome;
    this.cancelElicitations();
    this.unlinkAll();
    this.wake();
  }

  /** The call settled or the server asked: the waiting round (if any) goes on. */
  private wake(): void {
    if (this.roundDone === null || this.roundGathering) return;
    if (this.settled !== null) return this.endRound(this.settled);
    if (!this.queued?.length) return;
    // Elicitations raised together (e.g. by concurrent work of one call) share a round.
    this.roundGathering = true;
    setImmediate(() => this.gathered());
  }

  private gathered(): void {
    this.roundGathering = false;
    if (this.roundDone === null) return;
    if (this.settled !== null) return this.endRound(this.settled);
    const requests = new Map<string, ElicitationRequest>();
    const asked = (this.asked ??= new Map());
    for (const entry of this.queued?.splice(0) ?? []) {
      const key = `e${++this.asks}`;
      asked.set(key, entry);
      requests.set(key, entry.request);
    }
    this.park();
    this.owner.parked(this as Operation<unknown>);
    this.endRound({ kind: 'input', token: this.token, requests });
  }

  private endRound(outcome: RoundOutcome<T>): void {
    const done = this.roundDone!;
    const unlink = this.roundUnlink;
    this.roundDone = null;
    this.roundUnlink = null;
    this.progressSink = undefined;
    if (outcome.kind !== 'input') this.finish();
    else if (!this.roundSpans) unlink?.();
    done.roundEnded(outcome);
  }

  /** Answers for the elicitations asked last round; any the client left out is cancelled. */
  private deliver(answers: ReadonlyMap<string, ElicitationResponse>): void {
    if (this.asked === null || this.asked.size === 0) return;
    for (const [key, entry] of this.asked) entry.resolve(answers.get(key) ?? CANCEL);
    this.asked.clear();
  }

  private withdraw(entry: Pending): void {
    const i = this.queued?.indexOf(entry) ?? -1;
    if (i >= 0) this.queued!.splice(i, 1);
    if (this.asked !== null) {
      for (const [key, asked] of this.asked) if (asked === entry) this.asked.delete(key);
    }
    entry.resolve(CANCEL);
  }

  private cancelElicitations(): void {
    if (this.queued?.length) for (const entry of this.queued.splice(0)) entry.resolve(CANCEL);
    if (this.asked?.size) {
      for (const entry of this.asked.values()) entry.resolve(CANCEL);
      this.asked.clear();
    }
  }

  /** A cancelled round request (the client gave up) cancels the operation; returns the undo. */
  private link(signal: AbortSignal): () => void {
    if (signal.aborted) {
      this.cancel(signal.reason);
      return () => undefined;
    }
    const onAbort = () => this.cancel(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const unlink = () => signal.removeEventListener('abort', onAbort);
    (this.unlinks ??= []).push(unlink);
    return unlink;
  }

  /** Waiting for the client's next round; cancelled if it does not come back in time. */
  private park(): void {
    this.parkTimer = setTimeout(() => {
      this.cancel(new Error('the client did not answer the elicitation in time'));
      this.finish();
    }, this.parkTimeoutMs);
    this.parkTimer.unref();
  }

  private finish(): void {
    if (this.parkTimer !== undefined) clearTimeout(this.parkTimer);
    this.unlinkAll();
    this.owner.finished(this as Operation<unknown>);
  }

  private unlinkAll(): void {
    if (this.unlinks?.length) for (const unlink of this.unlinks.splice(0)) unlink();
  }
}
