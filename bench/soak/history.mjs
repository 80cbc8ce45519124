// The soak's history check: after the gateway stopped, open the home's history as the next mcprt
// process would (packages/runtime's SqliteHistoryStore, which replays the journal a SIGKILLed
// gateway left) and match its records to the calls by the nonce each call carried as its only
// argument. Every tool call the gateway answered (a result, error or not) must have exactly one
// record, a successful one `completed` and a tool error `failed`; no nonce may appear twice; no
// record may carry a nonce no client sent. Calls that failed otherwise may have one record or none.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { RUNTIME_DIST } from '../lib/paths.mjs';

async function readAll(home) {
  const { SqliteHistoryStore } = await import(pathToFileURL(join(RUNTIME_DIST, 'index.js')).href);
  const store = new SqliteHistoryStore(join(home, 'history.sqlite'), {
    redactKeys: [],
    maxResultBytes: 65536,
  });
  const rows = [];
  try {
    let cursor;
    do {
      const page = store.list({ limit: 500, ...(cursor ? { cursor } : {}) });
      rows.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor);
  } finally {
    store.close();
  }
  return rows;
}

export async function checkHistory(home, records) {
  const rows = await readAll(home);
  const byNonce = new Map();
  let withoutNonce = 0;
  for (const row of rows) {
    const nonce = row.arguments?.nonce;
    if (typeof nonce !== 'string') {
      withoutNonce++;
      continue;
    }
    const list = byNonce.get(nonce) ?? [];
    list.push(row);
    byNonce.set(nonce, list);
  }
  const calls = records.filter((r) => r.op !== 'read');
  const sent = new Set(calls.map((r) => r.nonce));
  const out = {
    records: rows.length,
    answered: 0,
    missing: [],
    duplicated: [],
    wrongStatus: [],
    unknown: [...byNonce.keys()].filter((n) => !sent.has(n)),
    withoutNonce,
    unansweredRecorded: 0,
    unansweredInProgress: 0,
  };
  for (const call of calls) {
    const found = byNonce.get(call.nonce) ?? [];
    if (found.length > 1) out.duplicated.push({ nonce: call.nonce, ids: found.map((r) => r.id) });
    if (['ok', 'toolError', 'declined', 'wrong'].includes(call.outcome)) {
      out.answered++;
      if (found.length === 0) {
        const { nonce, op, label, era, outcome, ms } = call;
        out.missing.push({ nonce, op, label, era, outcome, ms: Math.round(ms), text: call.text });
      }
      const want = call.outcome === 'toolError' ? 'failed' : 'completed';
      if (found.length === 1 && found[0].status !== want) {
        out.wrongStatus.push({
          nonce: call.nonce,
          want,
          got: found[0].status,
          error: found[0].error,
        });
      }
    } else if (found.length > 0) {
      out.unansweredRecorded++;
      if (found.some((r) => r.status === 'inProgress')) out.unansweredInProgress++;
    }
  }
  out.pass =
    out.missing.length === 0 &&
    out.duplicated.length === 0 &&
    out.wrongStatus.length === 0 &&
    out.unknown.length === 0;
  return out;
}
