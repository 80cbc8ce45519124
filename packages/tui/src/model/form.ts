/**
 * An elicitation form as pure state: fields built from `requestedSchema` (string with format and
 * length, number, integer, boolean, single select from `enum`/`oneOf`/`enumNames`, multi-select
 * from `items.enum`/`items.anyOf`), initial values from the defaults, keyboard edits, validation
 * with one message per field, and the `content` object an accepted answer sends. The schema comes
 * off the wire unvalidated, so it is read defensively: a field the TUI cannot render makes the
 * whole form unrenderable (the user can then only decline or cancel).
 */

export type FieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'select' | 'multiselect';

export interface Option {
  readonly value: string;
  readonly label: string;
}

export interface Field {
  readonly key: string;
  readonly label: string;
  readonly description: string | null;
  readonly required: boolean;
  readonly kind: FieldKind;
  readonly options: readonly Option[];
  readonly format: string | null;
  readonly minLength: number | null;
  readonly maxLength: number | null;
  readonly minimum: number | null;
  readonly maximum: number | null;
  readonly minItems: number | null;
  readonly maxItems: number | null;
}

export type FieldValue =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'select'; readonly index: number | null }
  | {
      readonly kind: 'multiselect';
      readonly selected: readonly boolean[];
      readonly cursor: number;
    };

export interface FormState {
  readonly fields: readonly Field[];
  readonly values: readonly FieldValue[];
  readonly focus: number;
  readonly errors: readonly (string | null)[];
  /** Set by the first submit: from then on errors follow every edit. */
  readonly attempted: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const strings = (v: unknown): string[] | null =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;

function constOptions(v: unknown): Option[] | null {
  if (!Array.isArray(v)) return null;
  const out: Option[] = [];
  for (const o of v) {
    if (!isObj(o) || typeof o['const'] !== 'string') return null;
    out.push({ value: o['const'], label: str(o['title']) ?? o['const'] });
  }
  return out;
}

/** Fields of a form schema, or why it cannot be shown. */
export function buildFields(schema: unknown): { fields: Field[] } | { error: string } {
  if (!isObj(schema) || schema['type'] !== 'object' || !isObj(schema['properties']))
    return { error: 'the requested schema is not an object schema with properties' };
  const required = new Set(strings(schema['required']) ?? []);
  const fields: Field[] = [];
  for (const [key, raw] of Object.entries(schema['properties'])) {
    if (!isObj(raw)) return { error: `field \`${key}\` has no schema` };
    const base = {
      key,
      label: str(raw['title']) ?? key,
      description: str(raw['description']),
      required: required.has(key),
      options: [] as Option[],
      format: null,
      minLength: null,
      maxLength: null,
      minimum: null,
      maximum: null,
      minItems: null,
      maxItems: null,
    };
    const type = raw['type'];
    const enumValues = strings(raw['enum']);
    const oneOf = constOptions(raw['oneOf']);
    if (type === 'string' && (enumValues || oneOf)) {
      const names = strings(raw['enumNames']);
      const options =
        oneOf ?? enumValues!.map((value, i) => ({ value, label: names?.[i] ?? value }));
      fields.push({ ...base, kind: 'select', options });
    } else if (type === 'string') {
      fields.push({
        ...base,
        kind: 'text',
        format: str(raw['format']),
        minLength: num(raw['minLength']),
        maxLength: num(raw['maxLength']),
      });
    } else if (type === 'number' || type === 'integer') {
      fields.push({
        ...base,
        kind: type,
        minimum: num(raw['minimum']),
        maximum: num(raw['maximum']),
      });
    } else if (type === 'boolean') {
      fields.push({ ...base, kind: 'boolean' });
    } else if (type === 'array' && isObj(raw['items'])) {
      const items = raw['items'];
      const itemValues = strings(items['enum']);
      const options =
        constOptions(items['anyOf']) ?? itemValues?.map((value) => ({ value, label: value }));
      if (!options) return { error: `field \`${key}\` is an array without options` };
      fields.push({
        ...base,
        kind: 'multiselect',
        options,
        minItems: num(raw['minItems']),
        maxItems: num(raw['maxItems']),
      });
    } else {
      return { error: `field \`${key}\` has an unsupported type ${JSON.stringify(type)}` };
    }
  }
  return { fields };
}

function initialValue(field: Field, schema: Obj): FieldValue {
  const d = schema['default'];
  switch (field.kind) {
    case 'text':
      return { kind: 'text', text: str(d) ?? '' };
    case 'number':
    case 'integer':
      return { kind: 'text', text: num(d) === null ? '' : String(d) };
    case 'boolean':
      return { kind: 'boolean', value: d === true };
    case 'select': {
      const i = field.options.findIndex((o) => o.value === d);
      return { kind: 'select', index: i < 0 ? null : i };
    }
    case 'multiselect': {
      const chosen = new Set(strings(d) ?? []);
      return {
        kind: 'multiselect',
        selected: field.options.map((o) => chosen.has(o.value)),
        cursor: 0,
      };
    }
  }
}

/** A new form for `schema` with its defaults filled in. */
export function createForm(schema: unknown): FormState | { error: string } {
  const built = buildFields(schema);
  if ('error' in built) return built;
  const props = (schema as { properties: Record<string, Obj> }).properties;
  return {
    fields: built.fields,
    values: built.fields.map((f) =>
      initialValue(f, Object.hasOwn(props, f.key) ? props[f.key]! : {}),
    ),
    focus: 0,
    errors: built.fields.map(() => null),
    attempted: false,
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function validFormat(format: string, text: string): string | null {
  switch (format) {
    case 'email':
      return EMAIL.test(text) ? null : 'must be an email address';
    case 'uri':
      try {
        new URL(text);
        return null;
      } catch {
        return 'must be a URI (like https://example.com)';
      }
    case 'date':
      return DATE.test(text) && !Number.isNaN(Date.parse(text))
        ? null
        : 'must be a date (YYYY-MM-DD)';
    case 'date-time':
      return DATE_TIME.test(text) && !Number.isNaN(Date.parse(text))
        ? null
        : 'must be a date and time (like 2025-01-31T09:30:00Z)';
    default:
      return null;
  }
}

/** The message for one field's value, or null when it is valid. */
export function validateField(field: Field, value: FieldValue): string | null {
  const name = field.label;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  switch (value.kind) {
    case 'text': {
      const text = value.text;
      if (text.trim() === '') return field.required ? `${name} is required` : null;
      if (field.kind === 'number' || field.kind === 'integer') {
        const n = Number(text.trim());
        if (!Number.isFinite(n)) return `${name} must be a number`;
        if (field.kind === 'integer' && !Number.isInteger(n))
          return `${name} must be a whole number`;
        if (field.minimum !== null && n < field.minimum)
          return `${name} must be at least ${field.minimum}`;
        if (field.maximum !== null && n > field.maximum)
          return `${name} must be at most ${field.maximum}`;
        return null;
      }
      const length = [...text].length;
      if (field.minLength !== null && length < field.minLength)
        return `${name} must be at least ${plural(field.minLength, 'character')}`;
      if (field.maxLength !== null && length > field.maxLength)
        return `${name} must be at most ${plural(field.maxLength, 'character')}`;
      const formatError = field.format === null ? null : validFormat(field.format, text);
      return formatError === null ? null : `${name} ${formatError}`;
    }
    case 'boolean':
      return null;
    case 'select':
      return value.index === null && field.required ? `Choose an option for ${name}` : null;
    case 'multiselect': {
      const count = value.selected.filter(Boolean).length;
      if (count === 0 && !field.required && field.minItems === null) return null;
      const min = field.minItems ?? (field.required ? 1 : 0);
      if (count < min) return `Choose at least ${plural(min, 'option')} for ${name}`;
      if (field.maxItems !== null && count > field.maxItems)
        return `Choose at most ${plural(field.maxItems, 'option')} for ${name}`;
      return null;
    }
  }
}

function withValue(state: FormState, index: number, value: FieldValue): FormState {
  const values = state.values.map((v, i) => (i === index ? value : v));
  const errors = state.attempted
    ? state.fields.map((f, i) => validateField(f, values[i]!))
    : state.errors;
  return { ...state, values, errors };
}

const focused = (state: FormState): { field: Field; value: FieldValue } | null => {
  const field = state.fields[state.focus];
  const value = state.values[state.focus];
  return field && value ? { field, value } : null;
};

/** Move the focus by `delta` fields, wrapping around. */
export function moveFocus(state: FormState, delta: number): FormState {
  const n = state.fields.length;
  if (n === 0) return state;
  return { ...state, focus: (((state.focus + delta) % n) + n) % n };
}

/** Typed characters: appended to a text field; a space toggles booleans and options. */
export function typeText(state: FormState, input: string): FormState {
  const f = focused(state);
  if (!f) return state;
  if (f.value.kind === 'text') {
    // Pasted newlines end up as spaces: a field is one line.
    // eslint-disable-next-line no-control-regex
    const clean = input.replace(/[\r\n]+/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '');
    return withValue(state, state.focus, { kind: 'text', text: f.value.text + clean });
  }
  return input === ' ' ? toggle(state) : state;
}

/** Delete the last character of a text field. */
export function backspace(state: FormState): FormState {
  const f = focused(state);
  if (!f || f.value.kind !== 'text') return state;
  const chars = [...f.value.text];
  chars.pop();
  return withValue(state, state.focus, { kind: 'text', text: chars.join('') });
}

/** Space: flip a boolean, tick the option under the cursor, or pick the next single option. */
export function toggle(state: FormState): FormState {
  const f = focused(state);
  if (!f) return state;
  switch (f.value.kind) {
    case 'boolean':
      return withValue(state, state.focus, { kind: 'boolean', value: !f.value.value });
    case 'multiselect': {
      const { cursor } = f.value;
      const selected = f.value.selected.map((s, i) => (i === cursor ? !s : s));
      return withValue(state, state.focus, { ...f.value, selected });
    }
    case 'select':
      return choose(state, 1);
    case 'text':
      return state;
  }
}

/** ←/→: the previous/next option of a select, the option cursor of a multi-select, a boolean. */
export function choose(state: FormState, delta: number): FormState {
  const f = focused(state);
  if (!f) return state;
  const n = f.field.options.length;
  switch (f.value.kind) {
    case 'select': {
      if (n === 0) return state;
      const from = f.value.index ?? (delta > 0 ? -1 : 0);
      return withValue(state, state.focus, {
        kind: 'select',
        index: (((from + delta) % n) + n) % n,
      });
    }
    case 'multiselect': {
      if (n === 0) return state;
      const cursor = (((f.value.cursor + delta) % n) + n) % n;
      return {
        ...state,
        values: state.values.map((v, i) => (i === state.focus ? { ...f.value, cursor } : v)),
      };
    }
    case 'boolean':
      return toggle(state);
    case 'text':
      return state;
  }
}

function contentValue(field: Field, value: FieldValue): unknown {
  switch (value.kind) {
    case 'text': {
      if (value.text.trim() === '') return undefined;
      return field.kind === 'text' ? value.text : Number(value.text.trim());
    }
    case 'boolean':
      return value.value;
    case 'select':
      return value.index === null ? undefined : field.options[value.index]?.value;
    case 'multiselect': {
      const chosen = field.options.filter((_, i) => value.selected[i]).map((o) => o.value);
      return chosen.length === 0 && !field.required ? undefined : chosen;
    }
  }
}

/**
 * Validate every field. Valid: the `content` to send (empty optional fields left out). Invalid:
 * the state with every message set and the focus on the first invalid field.
 */
export function submit(state: FormState): {
  state: FormState;
  content: Record<string, unknown> | null;
} {
  const errors = state.fields.map((f, i) => validateField(f, state.values[i]!));
  const first = errors.findIndex((e) => e !== null);
  if (first >= 0)
    return { state: { ...state, errors, attempted: true, focus: first }, content: null };
  // Field names are the server's: built from entries, so `__proto__` is a field like any other.
  const content: Record<string, unknown> = Object.fromEntries(
    state.fields.flatMap((f, i) => {
      const v = contentValue(f, state.values[i]!);
      return v === undefined ? [] : [[f.key, v] as const];
    }),
  );
  return { state: { ...state, errors, attempted: true }, content };
}
