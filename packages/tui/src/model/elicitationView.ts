/**
 * Elicitation prompts as lines: the form (each field with its label, value, options, description
 * and validation message, the focused one marked `›`; scrolling with the focus when it is taller
 * than the terminal) and URL consent (the domain, prominently, before the full address). Both
 * name the asking registration as `server@env`.
 */

import { clampLines, truncate, wrap } from '../text/fit.js';
import type { FieldValue, FormState } from './form.js';
import type { FieldBlock } from './formWindow.js';
import { fitForm } from './formWindow.js';
import type { Line } from './lines.js';
import { line } from './lines.js';

export const FORM_KEYS =
  'Enter submit · Tab/↓ next · ↑ previous · Space/←/→ choose · Esc cancel · Ctrl+D decline';
export const URL_KEYS = 'y accept and open it yourself · n decline · Esc cancel';

function valueLines(
  value: FieldValue,
  options: readonly { label: string }[],
  focused: boolean,
  width: number,
): Line[] {
  const pad = '      ';
  switch (value.kind) {
    case 'text': {
      const shown = value.text + (focused ? '█' : '');
      return wrap(shown === '' ? '(empty)' : shown, width, `${pad}`, `${pad}`).map((t) =>
        line(t, value.text === '' && !focused ? 'dim' : 'plain'),
      );
    }
    case 'boolean':
      return [line(truncate(`${pad}${value.value ? '[x] yes' : '[ ] no'}`, width))];
    case 'select':
      return options.map((o, i) =>
        line(
          truncate(`${pad}${i === value.index ? '(•)' : '( )'} ${o.label}`, width),
          i === value.index ? 'accent' : 'plain',
        ),
      );
    case 'multiselect':
      return options.map((o, i) =>
        line(
          truncate(
            `${focused && i === value.cursor ? '    › ' : pad}${value.selected[i] ? '[x]' : '[ ]'} ${o.label}`,
            width,
          ),
          value.selected[i] ? 'accent' : 'plain',
        ),
      );
  }
}

export interface ElicitationHeader {
  /** `server@env` (bare name for thread-wide). */
  readonly scope: string;
  readonly message: string;
}

/**
 * The form as lines, at most `maxRows` of them: when everything does not fit, the fields scroll
 * with the focus (formWindow.ts), so the focused field and its message are always on screen.
 */
export function formLines(
  header: ElicitationHeader,
  form: FormState,
  width: number,
  maxRows = Number.POSITIVE_INFINITY,
): Line[] {
  const top: Line[] = [
    line(truncate(`${header.scope} asks for input`, width), 'bold'),
    ...wrap(header.message, width, '  ', '  ', maxRows).map((t) => line(t)),
  ];
  const blocks: FieldBlock[] = form.fields.map((field, i) => {
    const focused = i === form.focus;
    const value = form.values[i]!;
    const label = `${focused ? '  › ' : '    '}${field.label}${field.required ? ' *' : ''}`;
    const valueRows = valueLines(value, field.options, focused, width);
    const error = form.errors[i];
    return {
      label: [line(truncate(label, width), focused ? 'accent' : 'bold')],
      value: valueRows,
      active:
        value.kind === 'select'
          ? (value.index ?? 0)
          : value.kind === 'multiselect'
            ? value.cursor
            : valueRows.length - 1,
      description: field.description
        ? wrap(field.description, width, '      ', '      ', maxRows).map((t) => line(t, 'dim'))
        : [],
      error: error ? wrap(error, width, '      ! ', '        ').map((t) => line(t, 'error')) : [],
    };
  });
  const keys = wrap(FORM_KEYS, width, '', '').map((t) => line(t, 'dim'));
  return fitForm(top, blocks, form.focus, keys, maxRows, width);
}

/** The domain to show for a URL, or why it is not a web address. */
export function urlDomain(url: string): { domain: string; secure: boolean } | { error: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { error: 'this is not a valid URL' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return { error: `this is not a web address (${parsed.protocol.replace(/:$/, '')})` };
  // `hostname` is the ASCII (punycode) form, so look-alike Unicode domains show as xn--….
  return { domain: parsed.hostname, secure: parsed.protocol === 'https:' };
}

export function urlConsentLines(
  header: ElicitationHeader,
  url: string,
  width: number,
  maxRows = Number.POSITIVE_INFINITY,
): Line[] {
  const title = [line(truncate(`${header.scope} asks you to open a URL`, width), 'bold')];
  let message = wrap(header.message, width, '  ', '  ', maxRows).map((t) => line(t));
  const domainLines: Line[] = [];
  const domain = urlDomain(url);
  if ('error' in domain) {
    domainLines.push(
      ...wrap(`Not opened: ${domain.error}.`, width, '  ', '  ').map((t) => line(t, 'error')),
    );
  } else {
    domainLines.push(line(truncate(`  Domain: ${domain.domain}`, width), 'accent'));
    if (!domain.secure) domainLines.push(line(truncate('  Warning: not https', width), 'warn'));
  }
  let address = wrap(url, width, '  URL: ', '       ', maxRows).map((t) => line(t, 'dim'));
  const keys = 'error' in domain ? 'n decline · Esc cancel' : URL_KEYS;
  const keyLines = wrap(keys, width, '', '').map((t) => line(t, 'dim'));
  const fixed = title.length + domainLines.length + keyLines.length;
  if (fixed + message.length + address.length > maxRows) {
    // Short of rows: the message to two lines, then the address cut (its domain is shown above).
    const clamp = (ls: Line[], max: number, tone: Line['tone']) =>
      clampLines(
        ls.map((l) => l.text),
        Math.max(1, max),
        width,
      ).map((t) => line(t, tone));
    message = clamp(message, 2, 'plain');
    address = clamp(address, maxRows - fixed - message.length, 'dim');
  }
  return [...title, ...message, ...domainLines, ...address, ...keyLines];
}
