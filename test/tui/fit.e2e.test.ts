/**
 * End to end: the TUI fits the terminal, in real terminals (tmux) of 100×35 and 60×20 on the
 * demo config. server-everything's `trigger-elicitation-request` asks for a form of 13 fields,
 * taller than both: what is on the screen (the visible rows, not the scrollback) always shows the
 * focused field, what is typed into it and its validation message, with the hidden fields
 * counted; Enter on an invalid form focuses the first invalid field. A long `/mcp verbose`, a
 * long result and cells that keep changing above the prompt never push the input off the screen.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { displayWidth } from '../../packages/tui/src/text/fit.js';
import { settled, Tmux } from './tmuxHarness.js';

const term = new Tmux(`mcprt-tui-fit-${process.pid}`);
const SIZES = [
  { name: 'tall', columns: 100, rows: 35 },
  { name: 'small', columns: 60, rows: 20 },
] as const;

beforeAll(() => {
  for (const { name, columns, rows } of SIZES)
    term.session(name, columns, 'node packages/cli/dist/main.js --home demo', '', rows);
});
afterAll(() => term.kill());

const lines = (screen: string) => screen.split('\n');
const focusedLabel = (screen: string) => lines(screen).find((l) => l.startsWith('  › '));
const wideLines = (name: string, columns: number) =>
  term
    .capture(name, true)
    .split('\n')
    .filter((l) => displayWidth(l) > columns);

describe.each(SIZES)('the TUI in a $columns×$rows terminal', ({ name, columns, rows }) => {
  const screenWith = (check: (s: string) => boolean, what: string, timeoutMs = 30_000) =>
    term.waitFor(name, check, what, timeoutMs, 'screen');

  it('the elicitation form scrolls with the focus; the error is next to the field', async () => {
    await term.waitFor(name, settled, 'the first /mcp view to settle', 100_000);
    term.send(name, '/call everything trigger-elicitation-request {}');
    let screen = await screenWith(
      (s) => s.includes('everything asks for input') && s.includes('  › String *'),
      'the form, its first field focused',
    );
    expect(lines(screen).length).toBeLessThanOrEqual(rows);
    expect(screen).toMatch(/^ {2}↓ \d+ more fields$/m);
    expect(lines(screen).at(-1)).toMatch(/Esc cancel · Ctrl\+D decline$/);

    // Enter on the empty form: the required field's message, on screen, next to it.
    term.keys(name, 'Enter');
    screen = await screenWith((s) => s.includes('! String is required'), 'the message');
    expect(focusedLabel(screen)).toBe('  › String *');
    const at = lines(screen).indexOf('  › String *');
    expect(
      lines(screen)
        .slice(at, at + 5)
        .join('\n'),
    ).toContain('! String is required');

    // Down the form: the focus stays on screen, the fields above are counted, one of them invalid.
    term.keys(name, 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab');
    screen = await screenWith(
      (s) => /^ {2}↑ \d+ more fields?, 1 invalid$/m.test(s),
      'the invalid field counted above',
    );
    expect(focusedLabel(screen)).toBeDefined();
    expect(focusedLabel(screen)).not.toBe('  › String *');
    expect(lines(screen).length).toBeLessThanOrEqual(rows);

    // Enter again: back to the first invalid field, with its message.
    term.keys(name, 'Enter');
    screen = await screenWith((s) => focusedLabel(s) === '  › String *', 'the focus back');
    expect(screen).toContain('! String is required');

    // What is typed shows in the focused field, and the message follows the edit.
    term.run('send-keys', '-t', name, '-l', 'Ada Lovelace');
    screen = await screenWith((s) => s.includes('Ada Lovelace█'), 'the typed name');
    expect(screen).not.toContain('! String is required');
    term.keys(name, 'Enter');
    screen = await screenWith(
      (s) => s.includes('✅ User provided the requested information!') && /\n›$/.test(s),
      'the accepted answer and the prompt',
    );
    expect(term.capture(name)).toContain('• everything asked for input: accepted');
    expect(wideLines(name, columns)).toEqual([]);
  }, 150_000);

  it('long /mcp verbose, long results and changing cells leave the input on screen', async () => {
    term.send(name, '/mcp verbose');
    let screen = await screenWith(
      (s) => s.includes('Resource templates:') && /\n›$/.test(s),
      'the verbose view, the prompt under it',
    );
    expect(lines(screen).length).toBeLessThanOrEqual(rows);

    term.send(name, '/call everything get-env {}');
    screen = await screenWith(
      (s) => s.includes('• Called everything.get-env') && /└ completed/.test(s) && /\n›$/.test(s),
      'the long result, the prompt under it',
    );

    // A running call keeps the cells after it changing: a verbose view behind it is taller than
    // the screen, so its latest lines show with a count of the others, and the prompt stays.
    term.send(name, '/call everything trigger-long-running-operation {"duration":6,"steps":3}');
    term.send(name, '/mcp verbose');
    screen = await screenWith(
      (s) => /^↑ \d+ more lines above$/m.test(s) && /\n›$/.test(s),
      'the changing cells clipped above the prompt',
    );
    expect(lines(screen).length).toBeLessThanOrEqual(rows);
    // Once the call is done everything settles and is printed in full, above the prompt.
    await term.waitFor(
      name,
      (p) => {
        const after = p.slice(p.lastIndexOf('› /call everything trigger-long-running-operation'));
        return /└ completed/.test(after) && after.includes('Resource templates:') && /\n›$/.test(p);
      },
      'the call done and the verbose view printed',
      30_000,
    );
    expect(lines(term.screen(name)).at(-1)).toBe('›');
    expect(wideLines(name, columns)).toEqual([]);
  }, 90_000);
});
