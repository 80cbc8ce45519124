import { describe, expect, it } from 'vitest';

import type { FinishRow, StartRow } from './journalLines.js';
import { finishLine, parseJournalLine, startLine } from './journalLines.js';

const start: StartRow = {
  id: 'call_1',
  threadId: 't,"args":1',
  server: 's0',
  environmentId: null,
  tool: 'echo',
  arguments: JSON.stringify({ message: 'hi ,"args": "x"', nested: { args: [1, { args: null }] } }),
  startedAt: 1_000,
  view: 'review,"args":2',
  caller: null,
};

const finish: FinishRow = {
  id: 'call_1',
  status: 'failed',
  result: JSON.stringify({ content: [{ type: 'text', text: '},"result":{' }], result: 2 }),
  truncated: 0,
  error: 'boom ,"result":{"x":1}',
  durationMs: 3,
};

/** What the store kept before ADR 0022: the parsed value encoded again. */
const reencoded = (text: string | null) =>
  text === null ? null : JSON.stringify(JSON.parse(text));

describe('parseJournalLine', () => {
  it('keeps the JSON text of arguments and results of the lines a store writes', () => {
    const s = parseJournalLine(startLine(start).trimEnd());
    expect(s).toEqual({ kind: 'start', row: start });
    const f = parseJournalLine(finishLine(finish).trimEnd());
    expect(f).toEqual({ kind: 'finish', row: finish });
    expect(parseJournalLine(startLine({ ...start, arguments: null }).trimEnd())).toMatchObject({
      row: { arguments: null },
    });
    expect(parseJournalLine(finishLine({ ...finish, result: null }).trimEnd())).toMatchObject({
      row: { result: null },
    });
  });

  it('stores the same value for lines laid out otherwise (spaces, other order, duplicates)', () => {
    const args = { a: 1, args: { b: [2] } };
    const lines = [
      `{"k":"s", "id":"c","thread":"t","server":"s","env":null,"tool":"x","at":1,"args": ${JSON.stringify(args, null, 1)} }`,
      `{"args":${JSON.stringify(args)},"k":"s","id":"c","thread":"t","server":"s","env":null,"tool":"x","at":1}`,
      `{"k":"s","id":"c","thread":"t","server":"s","env":null,"tool":"x","at":1,"args":{"a":0},"args":${JSON.stringify(args)}}`,
      `{"k":"s","id":"c","thread":"t","server":"s","env":null,"tool":"x","at":1,"extra":{"args":0},"args":${JSON.stringify(args)}}`,
      `{"k":"s","id":"c","thread":"t","server":"s","env":null,"tool":"x","at":1,"args":${JSON.stringify(args)}}   `,
    ];
    for (const line of lines) {
      const record = parseJournalLine(line);
      if (record.kind !== 'start') throw new Error('not a start record');
      expect(JSON.parse(record.row.arguments!)).toEqual(args);
      expect(reencoded(record.row.arguments)).toBe(JSON.stringify(args));
    }
    const result = { content: [], isError: true };
    const duplicate = `{"k":"f","id":"c","status":"failed","ms":1,"truncated":false,"error":null,"result":{"content":1},"result":${JSON.stringify(result)}}`;
    const record = parseJournalLine(duplicate);
    if (record.kind !== 'finish') throw new Error('not a finish record');
    expect(JSON.parse(record.row.result!)).toEqual(result);
  });

  it('carries the view (null: none) and the refused status', () => {
    for (const view of [null, 'triage', 'ünïcode "quoted" view']) {
      const line = startLine({ ...start, view });
      expect(line).toContain(`"view":${JSON.stringify(view)},"args":`);
      expect(parseJournalLine(line.trimEnd())).toEqual({ kind: 'start', row: { ...start, view } });
    }
    const refused: FinishRow = {
      id: 'call_2',
      status: 'refused',
      result: null,
      truncated: 0,
      error: 'tool `rm` is not in view `triage`',
      durationMs: 0,
    };
    expect(parseJournalLine(finishLine(refused).trimEnd())).toEqual({
      kind: 'finish',
      row: refused,
    });
  });

  it('reads a start line written before views existed as made through no view', () => {
    // The line an older mcprt wrote: no `view` member, `args` the eighth.
    const old = `{"k":"s","id":"c","thread":"t","server":"s","env":"alpha","tool":"x","at":7,"args":{"a":[1,2]}}`;
    expect(parseJournalLine(old)).toEqual({
      kind: 'start',
      row: {
        id: 'c',
        threadId: 't',
        server: 's',
        environmentId: 'alpha',
        tool: 'x',
        arguments: '{"a":[1,2]}',
        startedAt: 7,
        view: null,
        caller: null,
      },
    });
  });

  it('carries the caller only for a call with one, its text whatever it holds', () => {
    const callers = [
      { subject: 'alice', clientId: 'web' },
      { subject: 'auth0|u,"args":1\n\u001b[31m', clientId: null },
      { subject: null, clientId: 'ci-bot' },
    ];
    for (const caller of callers) {
      const line = startLine({ ...start, caller });
      expect(line).toContain(
        `,"sub":${JSON.stringify(caller.subject)},"client":${JSON.stringify(caller.clientId)},"args":`,
      );
      expect(line.trimEnd()).not.toContain('\n');
      expect(line).not.toContain('\u001b');
      // The arguments' own text is kept (no second encoding) with the two members too.
      expect(parseJournalLine(line.trimEnd())).toEqual({
        kind: 'start',
        row: { ...start, caller },
      });
    }
    // No caller: no members (the line a call without one has always had).
    expect(startLine(start)).not.toMatch(/"sub"|"client"/);
    // Members written as null (by some other writer) read as no caller.
    const nulls = `{"k":"s","id":"c","thread":"t","server":"s","env":null,"tool":"x","at":1,"view":null,"sub":null,"client":null,"args":{"a":1}}`;
    expect(parseJournalLine(nulls)).toMatchObject({ row: { caller: null, arguments: '{"a":1}' } });
  });

  it('reads a start line of a newer writer with only one of sub and client', () => {
    const only = `{"k":"s","id":"c","thread":"t","server":"s","env":null,"tool":"x","at":1,"view":null,"client":"web","args":null}`;
    expect(parseJournalLine(only)).toMatchObject({
      row: { caller: { subject: null, clientId: 'web' } },
    });
  });

  it('rejects a bad view and an unknown status', () => {
    const line = (view: string) =>
      `{"k":"s","id":"c","thread":"t","server":"s","env":null,"tool":"x","at":1,"view":${view},"args":null}`;
    for (const bad of ['1', 'true', '{"name":"v"}', '["v"]']) {
      expect(() => parseJournalLine(line(bad))).toThrow('start record c: bad view');
    }
    for (const [sub, client] of [
      ['1', 'null'],
      ['"a"', '{"id":"web"}'],
    ]) {
      expect(() =>
        parseJournalLine(
          `{"k":"s","id":"c","thread":"t","server":"s","env":null,"tool":"x","at":1,"view":null,"sub":${sub},"client":${client},"args":null}`,
        ),
      ).toThrow('start record c: bad sub or client');
    }
    expect(() =>
      parseJournalLine(finishLine({ ...finish, status: 'rejected' as 'refused' }).trimEnd()),
    ).toThrow(/unknown status/);
  });

  it('still rejects lines that are not records', () => {
    expect(() => parseJournalLine(startLine(start).slice(0, -3))).toThrow(/not JSON/);
    expect(() => parseJournalLine('{"k":"s","id":"c"}')).toThrow(/without id, thread/);
  });
});
