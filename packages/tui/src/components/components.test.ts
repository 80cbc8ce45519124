/**
 * Component tests (ink-testing-library, real Ink): the elicitation form driven from the keyboard
 * — defaults, every field kind, validation messages that follow edits, the accepted content,
 * cancel and decline — URL consent showing the domain, and the call, login and history cells;
 * everything also at 60 columns.
 */

import { stripVTControlCharacters } from 'node:util';

import { render } from 'ink-testing-library';
import { createElement as h } from 'react';
import { describe, expect, it } from 'vitest';

import type { McpServerElicitationRequestResult } from '@mcprt/protocol';

import type { CallCell } from '../model/callCell.js';
import { callCellLines } from '../model/callCell.js';
import { parseCommand } from '../model/commands.js';
import type { HistoryCell } from '../model/historyView.js';
import { historyCellLines } from '../model/historyView.js';
import type { LoginCell } from '../model/loginView.js';
import { loginCellLines } from '../model/loginView.js';
import { expectFits, renderLines, words } from '../testing/render.js';
import { ElicitationForm } from './ElicitationForm.js';
import { UrlConsent } from './UrlConsent.js';

const KEY = {
  enter: '\r',
  tab: '\t',
  shiftTab: '\u001B[Z',
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  backspace: '\u007F',
  escape: '\u001B',
  ctrlD: '\u0004',
};

const pause = (ms = 30) => new Promise((r) => setTimeout(r, ms));

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    email: { type: 'string', title: 'Email', format: 'email', description: 'Where we write to' },
    age: { type: 'integer', title: 'Age', minimum: 18, maximum: 130 },
    ratio: { type: 'number', title: 'Ratio', default: 0.5 },
    subscribe: { type: 'boolean', title: 'Subscribe', default: true },
    color: { type: 'string', title: 'Color', enum: ['red', 'green', 'blue'], default: 'green' },
    size: {
      type: 'string',
      title: 'Size',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
    tags: {
      type: 'array',
      title: 'Tags',
      items: { type: 'string', enum: ['a', 'b', 'c'] },
      minItems: 1,
      maxItems: 2,
      default: ['a'],
    },
  },
  required: ['name', 'email', 'age', 'size'],
};

function mountForm(schema: unknown = SCHEMA, columns = 100) {
  const answers: McpServerElicitationRequestResult[] = [];
  const app = render(
    h(ElicitationForm, {
      scope: 'shared@sandbox',
      message: 'Who are you? We need a few details to continue.',
      requestedSchema: schema,
      width: columns,
      onAnswer: (a) => answers.push(a),
    }),
  );
  const frame = () => stripVTControlCharacters(app.lastFrame() ?? '');
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      app.stdin.write(k);
      await pause();
    }
  };
  return { app, frame, press, answers };
}

describe('elicitation form', () => {
  it('shows who asks, every field with its default, and the keys', () => {
    const { frame, app } = mountForm();
    const f = frame();
    expect(f).toContain('shared@sandbox asks for input');
    expect(f).toContain('Who are you? We need a few details to continue.');
    expect(f).toMatch(/› Name \*/);
    expect(f).toContain('Where we write to');
    expect(f).toMatch(/Ratio\n {6}0\.5/);
    expect(f).toMatch(/Subscribe\n {6}\[x\] yes/);
    expect(f).toMatch(/\(•\) green/);
    expect(f).toMatch(/\( \) Small\n {6}\( \) Large/);
    expect(f).toMatch(/\[x\] a\n {6}\[ \] b/);
    expect(f).toContain('Esc cancel');
    app.unmount();
  });

  it('validates on Enter, keeps messages in step with edits, and accepts the typed content', async () => {
    const { frame, press, answers, app } = mountForm();
    await press(KEY.enter);
    expect(answers).toEqual([]);
    let f = frame();
    expect(f).toContain('! Name is required');
    expect(f).toContain('! Email is required');
    expect(f).toContain('! Age is required');
    expect(f).toContain('! Choose an option for Size');
    expect(f).not.toContain('Tags is');

    await press('A');
    expect(frame()).toContain('! Name must be at least 2 characters');
    await press('da');
    expect(frame()).not.toContain('! Name');

    await press(KEY.tab, 'ada-at-example');
    expect(frame()).toContain('! Email must be an email address');
    await press(...Array.from({ length: 11 }, () => KEY.backspace), '@example.org');
    expect(frame()).not.toContain('! Email');

    await press(KEY.down, '17');
    expect(frame()).toContain('! Age must be at least 18');
    await press(KEY.backspace, KEY.backspace, '36.5');
    expect(frame()).toContain('! Age must be a whole number');
    await press(KEY.backspace, KEY.backspace);
    expect(frame()).not.toContain('! Age');

    await press(KEY.tab, KEY.tab, ' '); // Subscribe off
    expect(frame()).toMatch(/Subscribe\n {6}\[ \] no/);
    await press(KEY.tab, KEY.right); // green → blue
    expect(frame()).toMatch(/\(•\) blue/);
    await press(KEY.tab, KEY.right); // Size: Small
    expect(frame()).not.toContain('! Choose an option for Size');
    await press(KEY.tab, KEY.right, ' ', KEY.right, ' '); // Tags: a, b, c
    expect(frame()).toContain('! Choose at most 2 options for Tags');
    await press(KEY.enter);
    expect(answers).toEqual([]);
    await press(' '); // untick c
    f = frame();
    expect(f).not.toContain('!');
    await press(KEY.enter);
    expect(answers).toEqual([
      {
        action: 'accept',
        content: {
          name: 'Ada',
          email: 'ada@example.org',
          age: 36,
          ratio: 0.5,
          subscribe: false,
          color: 'blue',
          size: 's',
          tags: ['a', 'b'],
        },
      },
    ]);
    app.unmount();
  });

  it('moves back with ↑ and Shift+Tab, wrapping around', async () => {
    const { frame, press, app } = mountForm();
    await press(KEY.up);
    expect(frame()).toMatch(/› Tags/);
    await press(KEY.shiftTab);
    expect(frame()).toMatch(/› Size \*/);
    await press(KEY.down, KEY.down);
    expect(frame()).toMatch(/› Name \*/);
    app.unmount();
  });

  it('applies text, Backspace and Enter that arrive in one chunk, in order', async () => {
    const { press, answers, app } = mountForm({
      type: 'object',
      properties: { answer: { type: 'string' }, count: { type: 'integer', default: 7 } },
      required: ['answer'],
    });
    // Ink splits a read only at escape sequences: "forty-two", ↓, then "\x7f9\r" as one string.
    await press(`forty-twoo${KEY.backspace}${KEY.down}${KEY.backspace}9\r`);
    expect(answers).toEqual([{ action: 'accept', content: { answer: 'forty-two', count: 9 } }]);
    app.unmount();
  });

  it('answers cancel on Esc and decline on Ctrl+D, without content', async () => {
    const a = mountForm();
    await a.press('x', KEY.escape);
    await pause(100);
    expect(a.answers).toEqual([{ action: 'cancel', content: null }]);
    a.app.unmount();
    const b = mountForm();
    await b.press(KEY.ctrlD);
    expect(b.answers).toEqual([{ action: 'decline', content: null }]);
    b.app.unmount();
  });

  it('fills optional fields with defaults only: an untouched optional text is left out', async () => {
    const { press, answers, app } = mountForm({
      type: 'object',
      properties: {
        note: { type: 'string' },
        count: { type: 'integer', default: 7 },
        answer: { type: 'string', title: 'Answer' },
      },
      required: ['answer'],
    });
    await press(KEY.down, KEY.down, 'yes', KEY.enter);
    expect(answers).toEqual([{ action: 'accept', content: { count: 7, answer: 'yes' } }]);
    app.unmount();
  });

  it('cannot show a schema it does not understand, and then only declines or cancels', async () => {
    const { frame, press, answers, app } = mountForm({
      type: 'object',
      properties: { blob: { type: 'object' } },
    });
    expect(frame()).toContain(
      'This form cannot be shown: field `blob` has an unsupported type "object".',
    );
    await press(KEY.enter, 'y');
    expect(answers).toEqual([]);
    await press('n');
    expect(answers).toEqual([{ action: 'decline', content: null }]);
    app.unmount();
  });

  it('fits 60 columns with its validation messages', async () => {
    const { frame, press, app } = mountForm(
      {
        ...SCHEMA,
        properties: {
          ...SCHEMA.properties,
          a_field_with_a_long_name: {
            type: 'string',
            title: 'A field whose title is much longer than sixty columns, to be shortened',
            description:
              'A description that goes on and on so that it has to be wrapped over several lines of the form',
            minLength: 5,
          },
        },
        required: [...SCHEMA.required, 'a_field_with_a_long_name'],
      },
      60,
    );
    await press(KEY.enter);
    const f = frame();
    expectFits(f, 60);
    expect(f).toContain('! Choose an option for Size');
    expect(words(f)).toEqual(
      expect.arrayContaining(
        words('A description that goes on and on so that it has to be wrapped'),
      ),
    );
    app.unmount();
  });
});

describe('URL consent', () => {
  function mountUrl(url: string, columns = 100) {
    const answers: McpServerElicitationRequestResult[] = [];
    const app = render(
      h(UrlConsent, {
        scope: 'web@buildbox',
        message: 'Authorize access to your files',
        url,
        width: columns,
        onAnswer: (a) => answers.push(a),
      }),
    );
    return { app, answers, frame: () => stripVTControlCharacters(app.lastFrame() ?? '') };
  }

  it('names the asking registration and the domain, and accepts with y', async () => {
    const { frame, app, answers } = mountUrl('https://login.example.com/authorize?client=abc');
    expect(frame()).toContain('web@buildbox asks you to open a URL');
    expect(frame()).toContain('  Domain: login.example.com');
    expect(frame()).toContain('  URL: https://login.example.com/authorize?client=abc');
    app.stdin.write('y');
    await pause();
    expect(answers).toEqual([{ action: 'accept', content: null }]);
    app.unmount();
  });

  it('shows a look-alike Unicode domain in its ASCII form and warns about plain http', () => {
    const { frame, app } = mountUrl('http://ex\u0430mple.com/login');
    expect(frame()).toContain('  Domain: xn--exmple-4nf.com');
    expect(frame()).toContain('  Warning: not https');
    app.unmount();
  });

  it('never accepts an address that is not a web address; n declines', async () => {
    const { frame, app, answers } = mountUrl('javascript:alert(1)');
    expect(frame()).toContain('Not opened: this is not a web address (javascript).');
    app.stdin.write('y');
    await pause();
    expect(answers).toEqual([]);
    app.stdin.write('n');
    await pause();
    expect(answers).toEqual([{ action: 'decline', content: null }]);
    app.unmount();
  });

  it('wraps a long URL at 60 columns without losing a character', () => {
    const url = `https://auth.example.com/oauth/authorize?response_type=code&client_id=${'x'.repeat(80)}&state=abc`;
    const { frame, app } = mountUrl(url, 60);
    expectFits(frame(), 60);
    const urlLines = frame()
      .split('\n')
      .filter((l) => l.startsWith('  URL: ') || l.startsWith('       '));
    expect(urlLines.map((l) => l.replace(/^ {2}URL: | {7}/, '')).join('')).toBe(url);
    app.unmount();
  });
});

describe('transcript cells at 60 columns', () => {
  const call = (patch: Partial<CallCell>): CallCell => ({
    server: 'shared',
    tool: 'echo',
    scope: 'shared@sandbox',
    argsText: '{"message":"hi"}',
    state: 'completed',
    durationMs: 12,
    result: { content: [{ type: 'text', text: 'shared-sandbox: hi' }] },
    error: null,
    ...patch,
  });

  it('renders a call as Called server@env.tool(args), its status and duration and a preview', () => {
    expect(renderLines(callCellLines(call({}), 60))).toBe(
      [
        '• Called shared@sandbox.echo({"message":"hi"})',
        '  └ completed in 12 ms',
        '    shared-sandbox: hi',
      ].join('\n'),
    );
    expect(
      renderLines(callCellLines(call({ state: 'running', durationMs: null, result: null }), 60)),
    ).toBe('• Calling shared@sandbox.echo({"message":"hi"})\n  └ running…');
  });

  it('shortens long arguments, keeps three result rows, and shows errors', () => {
    const long = call({
      argsText: JSON.stringify({ message: 'x'.repeat(200) }),
      durationMs: 1530,
      result: {
        content: [{ type: 'text', text: ['one', 'two', 'three', 'four', 'five'].join('\n') }],
      },
    });
    const frame = renderLines(callCellLines(long, 60));
    expectFits(frame, 60);
    expect(frame.split('\n')[0]).toMatch(/^• Called shared@sandbox\.echo\(\{"message":"x+…\)$/);
    expect(frame).toContain('  └ completed in 1.5 s');
    expect(frame).toContain('    one\n    two\n    … 3 more lines');
    const failed = renderLines(
      callCellLines(
        call({ state: 'failed', result: null, error: 'unknown environment id `nowhere`' }),
        60,
      ),
    );
    expect(failed).toContain('  └ failed in 12 ms\n    Error: unknown environment id `nowhere`');
    const toolError = renderLines(
      callCellLines(
        call({
          state: 'failed',
          result: { content: [{ type: 'text', text: 'bad input' }], isError: true },
        }),
        60,
      ),
    );
    expect(toolError).toContain('    Error: bad input');
  });

  it('renders login states, wrapping the authorization URL whole', () => {
    const url = `https://auth.example.com/authorize?client_id=${'c'.repeat(90)}`;
    const waiting: LoginCell = {
      action: 'login',
      target: 'web@sandbox',
      state: 'waiting',
      authorizationUrl: url,
      message: null,
    };
    const frame = renderLines(loginCellLines(waiting, 60));
    expectFits(frame, 60);
    expect(frame).toContain('• Login web@sandbox');
    expect(
      frame
        .split('\n')
        .slice(2)
        .map((l) => l.trim())
        .join(''),
    ).toBe(url);
    expect(
      renderLines(
        loginCellLines(
          {
            ...waiting,
            state: 'unavailable',
            message: 'OAuth login is not available in this build',
          },
          60,
        ),
      ),
    ).toBe('• Login web@sandbox\n    OAuth login is not available in this build');
    expect(
      renderLines(
        loginCellLines(
          { ...waiting, state: 'failed', message: "unknown MCP server 'web (environment x)'" },
          60,
        ),
      ),
    ).toBe("• Login web@sandbox failed\n    Error: unknown MCP server 'web (environment x)'");
  });

  it('renders history rows with their registration scope', () => {
    const filters = {
      server: null,
      environmentId: 'sandbox',
      status: null,
      threadWideOnly: false,
      allThreads: false,
      limit: 20,
    };
    const cell: HistoryCell = {
      filters,
      state: 'loaded',
      more: true,
      message: null,
      rows: [
        {
          id: '2',
          threadId: 't',
          server: 'shared',
          environmentId: 'sandbox',
          tool: 'echo',
          arguments: {},
          view: null,
          caller: null,
          status: 'completed',
          result: null,
          resultTruncated: false,
          error: null,
          startedAt: new Date(2025, 0, 31, 9, 30, 5).getTime(),
          durationMs: 12,
        },
        {
          id: '1',
          threadId: 't',
          server: 'a-server-with-a-really-long-name',
          environmentId: null,
          tool: 'a_tool_with_a_long_name_too',
          arguments: {},
          view: null,
          caller: null,
          status: 'failed',
          result: null,
          resultTruncated: false,
          error: 'it broke in a way that needs a long explanation',
          startedAt: new Date(2025, 0, 31, 9, 30, 1).getTime(),
          durationMs: 3,
        },
      ],
    };
    const frame = renderLines(historyCellLines(cell, 60));
    expectFits(frame, 60);
    expect(frame.split('\n').slice(0, 2)).toEqual([
      '/history (environment sandbox, this session)',
      '  09:30:05  shared@sandbox.echo  completed  12 ms',
    ]);
    expect(frame.split('\n')[2]).toMatch(
      /^ {2}09:30:01 {2}a-server-with-a-really-long-name\.a_tool_with.*…$/,
    );
    expect(frame).toContain('(more: use --limit to see more than 2)');
  });
});

describe('slash commands', () => {
  it('parses /call with a JSON object containing spaces and --environment on either side', () => {
    expect(
      parseCommand('/call shared echo {"message": "hi --environment x"} --environment sandbox'),
    ).toEqual({
      kind: 'call',
      server: 'shared',
      tool: 'echo',
      args: { message: 'hi --environment x' },
      argsText: '{"message":"hi --environment x"}',
      environmentId: 'sandbox',
    });
    expect(parseCommand('/call shared echo --environment=buildbox {}')).toMatchObject({
      environmentId: 'buildbox',
      args: {},
    });
    expect(parseCommand('/call shared whoami')).toMatchObject({ args: {}, environmentId: null });
  });

  it('reports bad input with the usage', () => {
    expect(parseCommand('/call shared')).toEqual({
      kind: 'invalid',
      message: 'usage: /call <server> <tool> [<json object>] [--environment <id>]',
    });
    expect(parseCommand('/call shared echo [1]')).toMatchObject({
      message: expect.stringContaining('the arguments must be a JSON object, got `[1]`'),
    });
    expect(parseCommand('/call shared echo {"a": 1')).toMatchObject({
      message: 'the arguments are not a complete JSON object',
    });
    expect(parseCommand('/call shared echo {"a": tru}')).toMatchObject({
      message: expect.stringContaining('the arguments are not valid JSON'),
    });
    expect(parseCommand('/call shared echo {} --environment a --environment b')).toMatchObject({
      message: '--environment is given twice',
    });
    expect(parseCommand('/mcp login')).toMatchObject({
      message: 'usage: /mcp login <name> [--environment <id>]',
    });
    expect(parseCommand('/mcp login web --env x')).toMatchObject({
      message: expect.stringContaining('unknown option --env'),
    });
    expect(parseCommand('/history --status done')).toMatchObject({
      message: '--status must be one of inProgress, completed, failed, cancelled',
    });
    expect(parseCommand('/nope')).toMatchObject({ message: 'Unknown command /nope (try /help).' });
    expect(parseCommand('hello')).toMatchObject({ message: 'Commands start with / (try /help).' });
  });

  it('parses /mcp login with an environment and /history filters', () => {
    expect(parseCommand('/mcp login web --environment sandbox')).toEqual({
      kind: 'login',
      name: 'web',
      environmentId: 'sandbox',
    });
    expect(parseCommand('/mcp logout web')).toEqual({
      kind: 'logout',
      name: 'web',
      environmentId: null,
    });
    expect(parseCommand('/history --environment sandbox --status failed --all --limit 5')).toEqual({
      kind: 'history',
      filters: {
        server: null,
        environmentId: 'sandbox',
        status: 'failed',
        threadWideOnly: false,
        allThreads: true,
        limit: 5,
      },
    });
  });
});
