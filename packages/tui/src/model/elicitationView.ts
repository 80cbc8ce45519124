/**
 * Elicitation prompts as lines: the form (each field with its label, value, options, description
 * and validation message, the focused one marked `›`) and URL consent (the domain, prominently,
 * before the full address). Both name the asking registration as `server@env`.
 */

import { truncate, wrap } from '../text/fit.js';
import type { FieldValue, FormState } from './form.js';
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

export function formLines(header: ElicitationHeader, form: FormState, width: number): Line[] {
  const out: Line[] = [
    line(truncate(`${header.scope} asks for input`, width), 'bold'),
    ...wrap(header.message, width, '  ', '  ').map((t) => line(t)),
  ];
  form.fields.forEach((field, i) => {
    const focused = i === form.focus;
    const label = `${focused ? '  › ' : '    '}${field.label}${field.required ? ' *' : ''}`;
    out.push(line(truncate(label, width), focused ? 'accent' : 'bold'));
    out.push(...valueLines(form.values[i]!, field.options, focused, width));
    if (field.description)
      out.push(...wrap(field.description, width, '      ', '      ').map((t) => line(t, 'dim')));
    const error = form.errors[i];
    if (error) out.push(...wrap(error, width, '      ! ', '        ').map((t) => line(t, 'error')));
  });
  out.push(...wrap(FORM_KEYS, width, '', '').map((t) => line(t, 'dim')));
  return out;
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

export function urlConsentLines(header: ElicitationHeader, url: string, width: number): Line[] {
  const out: Line[] = [
    line(truncate(`${header.scope} asks you to open a URL`, width), 'bold'),
    ...wrap(header.message, width, '  ', '  ').map((t) => line(t)),
  ];
  const domain = urlDomain(url);
  if ('error' in domain) {
    out.push(
      ...wrap(`Not opened: ${domain.error}.`, width, '  ', '  ').map((t) => line(t, 'error')),
    );
  } else {
    out.push(line(truncate(`  Domain: ${domain.domain}`, width), 'accent'));
    if (!domain.secure) out.push(line(truncate('  Warning: not https', width), 'warn'));
  }
  out.push(...wrap(url, width, '  URL: ', '       ').map((t) => line(t, 'dim')));
  const keys = 'error' in domain ? 'n decline · Esc cancel' : URL_KEYS;
  out.push(...wrap(keys, width, '', '').map((t) => line(t, 'dim')));
  return out;
}
