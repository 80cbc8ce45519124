/**
 * Forms taller than the terminal (model/formWindow.ts through `formLines`): the schema is the one
 * server-everything's `trigger-elicitation-request` really sends (captured from the published
 * server through the runtime), shown in the rows a 100×35 and a 60×20 terminal leave. At every
 * step the view fits, the focused field's label, value and message are on screen, and the hidden
 * fields are counted; submitting with an invalid field focuses the first one, with its message.
 */

import { stripVTControlCharacters } from 'node:util';

import { render } from 'ink-testing-library';
import { createElement as h } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';

import { ElicitationForm } from '../../packages/tui/src/components/ElicitationForm.js';
import { formLines } from '../../packages/tui/src/model/elicitationView.js';
import type { FormState } from '../../packages/tui/src/model/form.js';
import {
  choose,
  createForm,
  moveFocus,
  submit,
  typeText,
} from '../../packages/tui/src/model/form.js';
import type { Line } from '../../packages/tui/src/model/lines.js';
import {
  FORM_CONTEXT_ROWS,
  latestLines,
  PROMPT_ROWS,
  viewport,
} from '../../packages/tui/src/model/viewport.js';
import { displayWidth } from '../../packages/tui/src/text/fit.js';
import { arr, EVERYTHING_SERVER, NODE, q } from '../helpers/fixtures.js';
import { useRuntimes } from '../helpers/runtimes.js';

const load = useRuntimes();
let schema: unknown;
let message = '';

beforeAll(async () => {
  const runtime = load(
    `[mcp_servers.everything]\ncommand = ${q(NODE)}\nargs = ${arr([EVERYTHING_SERVER, 'stdio'])}\n`,
  );
  const session = runtime.startSession({
    onElicitation: async (request) => {
      schema = request.requestedSchema;
      message = request.message;
      return { action: 'decline', content: null };
    },
  });
  await session.ready();
  await session.callTool({ server: 'everything', tool: 'trigger-elicitation-request' });
  await runtime.close();
}, 60_000);

const header = () => ({ scope: 'everything', message });
const texts = (lines: readonly Line[]) => lines.map((l) => l.text);
const newForm = () => {
  const form = createForm(schema);
  if ('error' in form) throw new Error(form.error);
  return form;
};

/** What a terminal of `rows` rows leaves a form: the TUI keeps one row free and 3 for context. */
const TERMINALS = [
  { columns: 100, rows: 35, maxRows: 35 - 1 - 3 },
  { columns: 60, rows: 20, maxRows: 20 - 1 - 3 },
];

function checkView(form: FormState, width: number, maxRows: number): string[] {
  const view = texts(formLines(header(), form, width, maxRows));
  expect(view.length).toBeLessThanOrEqual(maxRows);
  expect(view.filter((t) => displayWidth(t) > width)).toEqual([]);
  const field = form.fields[form.focus]!;
  // The focused field's label is marked and on screen, and so is its message, if any.
  expect(view.some((t) => t.startsWith(`  › ${field.label}`))).toBe(true);
  const error = form.errors[form.focus];
  if (error) expect(view.join(' ').replace(/\s+/g, ' ')).toContain(`! ${error}`);
  expect(view.at(-1)).toMatch(/cancel|decline/);
  return view;
}

describe('a form taller than the terminal scrolls with the focus', () => {
  it('is taller than both terminals unscrolled (so the windowing is what is tested)', () => {
    const full = formLines(header(), newForm(), 99);
    expect(full.length).toBeGreaterThan(35);
    expect(newForm().fields).toHaveLength(13);
  });

  for (const { columns, rows, maxRows } of TERMINALS) {
    it(`${columns}×${rows}: the first field at the top, the rest counted below`, () => {
      const view = checkView(newForm(), columns - 1, maxRows);
      expect(view[0]).toBe('everything asks for input');
      expect(view.some((t) => /^ {2}↑/.test(t))).toBe(false);
      const below = view.find((t) => /^ {2}↓ \d+ more fields?$/.test(t));
      expect(below).toBeDefined();
    });

    it(`${columns}×${rows}: submitting empty focuses the required field with its message`, () => {
      let form = moveFocus(moveFocus(moveFocus(newForm(), 1), 1), 1);
      const result = submit(form);
      expect(result.content).toBeNull();
      form = result.state;
      expect(form.fields[form.focus]!.key).toBe('name');
      const view = checkView(form, columns - 1, maxRows);
      expect(view.join('\n')).toContain('! String is required');
    });

    it(`${columns}×${rows}: every field, tabbing down and back up, is on screen when focused`, () => {
      let form = newForm();
      const n = form.fields.length;
      const counted = new Set<string>();
      for (let step = 0; step < 2 * n; step += 1) {
        const view = checkView(form, columns - 1, maxRows);
        for (const t of view) if (/^ {2}[↑↓] \d+ more field/.test(t)) counted.add(t.trim()[0]!);
        // The shown fields and the counted ones add up to all of them.
        const labels = new Set(
          form.fields.flatMap((f) => {
            const label = `${f.label}${f.required ? ' *' : ''}`;
            return [`  › ${label}`, `    ${label}`];
          }),
        );
        const shown = view.filter((t) => labels.has(t)).length;
        const hidden = view
          .map((t) => /^ {2}[↑↓] (\d+) more field/.exec(t)?.[1])
          .filter(Boolean)
          .reduce((a, b) => a + Number(b), 0);
        expect(shown + hidden).toBe(n);
        form = moveFocus(form, step < n ? 1 : -1);
      }
      expect([...counted].sort()).toEqual(['↑', '↓']);
    });

    it(`${columns}×${rows}: hidden invalid fields are counted as such`, () => {
      let form = submit(newForm()).state; // name is invalid and focused
      form = typeText(form, 'x'); // now valid
      for (let i = 0; i < 3; i += 1) form = moveFocus(form, 1); // email
      form = typeText(form, 'not-an-email');
      for (let i = 0; i < 8; i += 1) form = moveFocus(form, 1); // far below
      const view = checkView(form, columns - 1, maxRows);
      expect(view.some((t) => /^ {2}↑ \d+ more fields, 1 invalid$/.test(t))).toBe(true);
    });
  }

  it('a field taller than the rows shows the options around the chosen one', () => {
    const many = {
      type: 'object',
      properties: {
        pick: {
          type: 'string',
          title: 'Pick',
          enum: Array.from({ length: 40 }, (_, i) => `o${i}`),
        },
        other: { type: 'string', title: 'Other' },
      },
    };
    let form = createForm(many) as FormState;
    for (let i = 0; i < 20; i += 1) form = choose(form, 1);
    const view = texts(formLines({ scope: 's', message: 'm' }, form, 59, 12));
    expect(view.length).toBeLessThanOrEqual(12);
    expect(view).toContain('      (•) o19');
    expect(view.some((t) => /^ {6}↑ \d+ more$/.test(t))).toBe(true);
    expect(view.some((t) => /^ {6}↓ \d+ more$/.test(t))).toBe(true);
    expect(view).toContain('  ↓ 1 more field');
  });

  it('a form that fits is shown whole, as before', () => {
    const small = { type: 'object', properties: { a: { type: 'string', title: 'A' } } };
    const form = createForm(small) as FormState;
    expect(formLines({ scope: 's', message: 'm' }, form, 59, 10)).toEqual(
      formLines({ scope: 's', message: 'm' }, form, 59),
    );
  });
});

describe('the rows of the terminal, shared', () => {
  it('keeps one row free; the prompt first, the changing cells get the rest', () => {
    expect(viewport(35, 100, false)).toEqual({ live: 34 - PROMPT_ROWS, prompt: PROMPT_ROWS });
    expect(viewport(20, 2, true)).toEqual({ live: 2, prompt: 17 });
    expect(viewport(20, 50, true)).toEqual({
      live: FORM_CONTEXT_ROWS,
      prompt: 19 - FORM_CONTEXT_ROWS,
    });
    expect(viewport(undefined, 50, true).live).toBe(Number.POSITIVE_INFINITY);
  });

  it('changing cells show their latest lines and count the others', () => {
    const lines = Array.from({ length: 10 }, (_, i) => ({ text: `l${i}`, tone: 'plain' as const }));
    expect(texts(latestLines(lines, 4, 40))).toEqual(['↑ 7 more lines above', 'l7', 'l8', 'l9']);
    expect(latestLines(lines, 10, 40)).toEqual(lines);
    expect(latestLines(lines, 0, 40)).toEqual([]);
  });
});

describe('keys that arrive together', () => {
  it('Tab pressed several times in one read moves the focus that many fields', async () => {
    const app = render(
      h(ElicitationForm, {
        scope: 'everything',
        message,
        requestedSchema: schema,
        width: 59,
        maxRows: 16,
        onAnswer: () => {},
      }),
    );
    app.stdin.write('\t\t\t');
    await new Promise((r) => setTimeout(r, 50));
    const frame = stripVTControlCharacters(app.lastFrame() ?? '');
    app.unmount();
    expect(frame).toContain('  › String with email format');
    expect(frame.split('\n').length).toBeLessThanOrEqual(16);
  });
});
