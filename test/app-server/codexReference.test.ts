// The committed Codex 0.171 reference data is one Codex: every result and notification Codex sent
// for a mirrored method in the recorded transcripts (test/fixtures/codex-0.171/transcripts)
// validates against the schemas `npm run codex:reference` generated from the same Codex version
// (test/fixtures/codex-0.171/schema), and every schema is used. A transcript from another Codex,
// or a schema regenerated from one, fails here with the transcript, seq and ajv's message.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { assertCodexSchema, CODEX_REFERENCE } from '../helpers/codexSchema.js';

const TRANSCRIPTS = join(CODEX_REFERENCE, 'transcripts');

/** Client request → the schema of Codex's result. */
const RESULT_SCHEMAS: Record<string, string> = {
  'mcpServerStatus/list': 'ListMcpServerStatusResponse',
  'mcpServer/tool/call': 'McpServerToolCallResponse',
  'mcpServer/resource/read': 'McpResourceReadResponse',
  'config/mcpServer/reload': 'McpServerRefreshResponse',
  'thread/start': 'ThreadStartResponse',
};
/** Server notification or request → the schema of its params. */
const PARAMS_SCHEMAS: Record<string, string> = {
  'mcpServer/startupStatus/updated': 'McpServerStatusUpdatedNotification',
  'thread/started': 'ThreadStartedNotification',
  'mcpServer/elicitation/request': 'McpServerElicitationRequestParams',
};

interface Line {
  readonly seq: number;
  readonly dir: string;
  readonly msg: {
    id?: unknown;
    method?: string;
    params?: unknown;
    result?: unknown;
    error?: unknown;
  };
}

function lines(file: string): Line[] {
  return readFileSync(join(TRANSCRIPTS, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line);
}

const FILES = readdirSync(TRANSCRIPTS)
  .filter((f) => f.endsWith('.jsonl'))
  .sort();

describe('Codex 0.171 reference data (committed schemas and transcripts)', () => {
  it('has the nine transcripts and the nineteen mirrored schemas', () => {
    expect(FILES).toHaveLength(9);
    expect(readdirSync(join(CODEX_REFERENCE, 'schema'))).toHaveLength(19);
  });

  it('every Codex result and notification of a mirrored method matches the generated schema', () => {
    const checked = new Map<string, number>();
    const failures: string[] = [];
    const check = (file: string, seq: number, schema: string, value: unknown) => {
      checked.set(schema, (checked.get(schema) ?? 0) + 1);
      try {
        assertCodexSchema(schema, value);
      } catch (error) {
        failures.push(`${file}#${seq}: ${(error as Error).message}`);
      }
    };
    for (const file of FILES) {
      const all = lines(file);
      const requests = new Map<unknown, string>();
      for (const { dir, msg } of all)
        if (dir === 'c2s' && msg.method !== undefined && msg.id !== undefined)
          requests.set(msg.id, msg.method);
      for (const { seq, dir, msg } of all) {
        if (dir !== 's2c') continue;
        if (msg.method !== undefined) {
          const schema = PARAMS_SCHEMAS[msg.method];
          if (schema) check(file, seq, schema, msg.params);
        } else if (msg.result !== undefined) {
          const method = requests.get(msg.id);
          const schema = method === undefined ? undefined : RESULT_SCHEMAS[method];
          if (schema) check(file, seq, schema, msg.result);
        }
      }
    }
    expect(failures).toEqual([]);
    // Every schema named above was exercised, most of them many times.
    expect([...checked.keys()].sort()).toEqual(
      [...Object.values(RESULT_SCHEMAS), ...Object.values(PARAMS_SCHEMAS)].sort(),
    );
    expect(checked.get('McpServerStatusUpdatedNotification')).toBeGreaterThan(100);
  });

  it('a value Codex would not send fails the same check (the schemas are not vacuous)', () => {
    expect(() =>
      assertCodexSchema('McpServerStatusUpdatedNotification', {
        name: 'x',
        status: 'not-a-status',
      }),
    ).toThrow(/McpServerStatusUpdatedNotification rejects/);
    expect(() => assertCodexSchema('ListMcpServerStatusResponse', { data: 'no' })).toThrow();
  });
});
