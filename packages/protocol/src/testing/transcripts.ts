/**
 * Test support (not built): reads Codex's recorded wire transcripts committed in
 * `test/fixtures/codex-0.171/transcripts/` and pairs requests with their responses.
 */

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (`packages/protocol/src/testing/` is four levels down). */
export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const TRANSCRIPTS_DIR = resolve(REPO_ROOT, 'test/fixtures/codex-0.171/transcripts');

export type ExchangeKind =
  'clientRequest' | 'clientNotification' | 'serverRequest' | 'serverNotification';

export interface WireError {
  readonly code: number;
  readonly message: string;
}

/** One request or notification, with the response when it is a request. */
export interface Exchange {
  readonly file: string;
  readonly seq: number;
  readonly kind: ExchangeKind;
  readonly method: string;
  readonly params: unknown;
  readonly result?: unknown;
  readonly error?: WireError;
}

interface Line {
  seq: number;
  dir: 'c2s' | 's2c' | 'meta' | 'stderr';
  msg: unknown;
}

type Msg = Record<string, unknown>;

/** Every exchange in one transcript (`02-thread-basic.jsonl` …), in wire order. */
export function readTranscript(file: string): Exchange[] {
  const lines = readFileSync(resolve(TRANSCRIPTS_DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line);
  const responses = { c2s: new Map<unknown, Msg>(), s2c: new Map<unknown, Msg>() };
  for (const line of lines) {
    if (line.dir !== 'c2s' && line.dir !== 's2c') continue;
    const msg = line.msg as Msg;
    if (msg['method'] === undefined && msg['id'] !== undefined)
      responses[line.dir].set(msg['id'], msg);
  }
  const out: Exchange[] = [];
  for (const line of lines) {
    if (line.dir !== 'c2s' && line.dir !== 's2c') continue;
    const msg = line.msg as Msg;
    if (typeof msg['method'] !== 'string') continue;
    const fromClient = line.dir === 'c2s';
    const isRequest = msg['id'] !== undefined;
    const kind: ExchangeKind = fromClient
      ? isRequest
        ? 'clientRequest'
        : 'clientNotification'
      : isRequest
        ? 'serverRequest'
        : 'serverNotification';
    const base = { file, seq: line.seq, kind, method: msg['method'], params: msg['params'] };
    const response = isRequest ? responses[fromClient ? 's2c' : 'c2s'].get(msg['id']) : undefined;
    if (response === undefined) out.push(base);
    else if ('error' in response) out.push({ ...base, error: response['error'] as WireError });
    else out.push({ ...base, result: response['result'] });
  }
  return out;
}
