/**
 * Codex's own wire traffic parses with our schemas: every client params object for our methods
 * (except those Codex itself rejects, which we must reject with Codex's text), and every Codex
 * result and notification for our methods (except `thread/start`, which is intentionally ours).
 */

import { readdirSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { ProtocolError } from '../errors.js';
import {
  clientNotifications,
  clientRequests,
  serverNotifications,
  serverRequests,
} from '../registry.js';
import { type Exchange, readTranscript, TRANSCRIPTS_DIR } from '../testing/transcripts.js';
import { parseParams, validateOutgoing } from '../validate.js';

const FILES = ['02-thread-basic.jsonl', '05-multi-env.jsonl'];
const ALL_FILES = readdirSync(TRANSCRIPTS_DIR)
  .filter((f) => f.endsWith('.jsonl'))
  .sort();
/** Results and notifications whose shape mcprt deliberately does not share with Codex. */
const OURS_DIFFER = new Set(['thread/start', 'thread/started']);

const has = <T extends object>(table: T, method: string): method is Extract<keyof T, string> =>
  Object.hasOwn(table, method);

function where(x: Exchange): string {
  return `${x.file}#${x.seq} ${x.method}`;
}

function check(x: Exchange, seen: Set<string>): void {
  switch (x.kind) {
    case 'clientRequest': {
      if (!has(clientRequests, x.method)) return;
      const spec = clientRequests[x.method];
      seen.add(`params ${x.method}`);
      if (x.error?.message.startsWith('Invalid request:')) {
        // Codex rejected these params while deserializing: we reject them with the same text.
        let thrown: unknown;
        try {
          parseParams(spec.params, x.params, x.method);
        } catch (e) {
          thrown = e;
        }
        expect(thrown, where(x)).toBeInstanceOf(ProtocolError);
        expect((thrown as ProtocolError).toJSON(), where(x)).toEqual(x.error);
        return;
      }
      expect(() => parseParams(spec.params, x.params, x.method), where(x)).not.toThrow();
      if (x.result !== undefined && !OURS_DIFFER.has(x.method)) {
        seen.add(`result ${x.method}`);
        expect(() => validateOutgoing(spec.result, x.result), where(x)).not.toThrow();
      }
      return;
    }
    case 'clientNotification': {
      if (!has(clientNotifications, x.method)) return;
      const spec = clientNotifications[x.method];
      seen.add(`notification ${x.method}`);
      expect(() => parseParams(spec.params, x.params, x.method), where(x)).not.toThrow();
      return;
    }
    case 'serverRequest': {
      if (!has(serverRequests, x.method)) return;
      const spec = serverRequests[x.method];
      seen.add(`params ${x.method}`);
      expect(() => validateOutgoing(spec.params, x.params), where(x)).not.toThrow();
      if (x.result !== undefined) {
        seen.add(`result ${x.method}`);
        expect(() => parseParams(spec.result, x.result, x.method), where(x)).not.toThrow();
      }
      return;
    }
    case 'serverNotification': {
      if (!has(serverNotifications, x.method) || OURS_DIFFER.has(x.method)) return;
      const spec = serverNotifications[x.method];
      seen.add(`notification ${x.method}`);
      expect(() => validateOutgoing(spec.params, x.params), where(x)).not.toThrow();
      return;
    }
  }
}

describe('Codex 0.171 transcripts', () => {
  for (const file of FILES) {
    it(`${file}: every exchange of our methods parses with our schemas`, () => {
      const seen = new Set<string>();
      for (const x of readTranscript(file)) check(x, seen);
      expect(seen.size).toBeGreaterThan(5);
    });
  }

  it('covers every method both transcripts exercise', () => {
    const seen = new Set<string>();
    for (const file of FILES) for (const x of readTranscript(file)) check(x, seen);
    expect([...seen].sort()).toEqual([
      'notification initialized',
      'notification mcpServer/startupStatus/updated',
      'notification serverRequest/resolved',
      'params config/mcpServer/reload',
      'params initialize',
      'params mcpServer/elicitation/request',
      'params mcpServer/resource/read',
      'params mcpServer/tool/call',
      'params mcpServerStatus/list',
      'params thread/start',
      'result config/mcpServer/reload',
      'result initialize',
      'result mcpServer/elicitation/request',
      'result mcpServer/resource/read',
      'result mcpServer/tool/call',
      'result mcpServerStatus/list',
    ]);
  });

  it('also holds for every other recorded transcript', () => {
    expect(ALL_FILES).toEqual(expect.arrayContaining(FILES));
    const seen = new Set<string>();
    for (const file of ALL_FILES) for (const x of readTranscript(file)) check(x, seen);
  });

  it('rejects the params Codex rejected, with Codex’s messages', () => {
    const rejected = ALL_FILES.flatMap(readTranscript).filter(
      (x) => has(clientRequests, x.method) && x.error?.message.startsWith('Invalid request:'),
    );
    // check() asserts our message equals Codex's for each of these.
    expect(rejected.map((x) => `${x.method}: ${x.error?.message ?? ''}`).sort()).toEqual([
      'mcpServer/resource/read: Invalid request: missing field `uri`',
      'mcpServer/tool/call: Invalid request: missing field `threadId`',
      'mcpServer/tool/call: Invalid request: missing field `tool`',
      'mcpServerStatus/list: Invalid request: unknown variant `bogus`, expected `full` or `toolsAndAuthOnly`',
    ]);
  });
});
