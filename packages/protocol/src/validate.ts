/**
 * Validation at the wire boundary. `parseParams` turns a zod failure into the -32600 message a
 * Codex client expects (serde's wording: ``missing field `tool` ``, ``unknown variant `x`,
 * expected `a` or `b` ``), naming the field path where serde would not. `validateOutgoing` checks
 * what we are about to send (tests, debug builds) and fails as an internal error.
 */

import { z } from 'zod';

import { ErrorCode, ProtocolError } from './errors.js';

/** What `parseParams` returns: the schema's output (unknown keys stripped or kept per schema). */
export type ParsedOk<S extends z.ZodType> = z.output<S>;

type Issue = z.core.$ZodIssue;
type PathKey = PropertyKey;

const IDENT = /^[A-Za-z_$][\w$]*$/;

function formatPath(path: readonly PathKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && IDENT.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

const at = (path: readonly PathKey[]): string => ` at \`${formatPath(path) || 'params'}\``;
/**
 * serde-worded messages (missing field, unknown variant/field) name the location only when it is
 * nested, so top-level ones read exactly like Codex's. `path` is the object holding the field.
 */
const nestedAt = (path: readonly PathKey[]): string => (path.length > 0 ? at(path) : '');
/** Same for a message about the field at `path` itself. */
const fieldAt = (path: readonly PathKey[]): string => (path.length > 1 ? at(path) : '');

function valueAt(input: unknown, path: readonly PathKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** serde's `OneOf` wording. */
function oneOf(values: readonly unknown[]): string {
  const names = values.map((v) => `\`${String(v)}\``);
  if (names.length === 0) return 'no variants';
  if (names.length === 1) return names[0] ?? '';
  if (names.length === 2) return `${names[0]} or ${names[1]}`;
  return `one of ${names.join(', ')}`;
}

const TYPE_NAMES: Record<string, string> = { int: 'integer', record: 'object', map: 'object' };

function isMissing(issue: Issue, input: unknown): boolean {
  if (issue.code !== 'invalid_type' && issue.code !== 'invalid_union') return false;
  if (issue.path.length === 0) return false;
  const parent = valueAt(input, issue.path.slice(0, -1));
  const key = issue.path[issue.path.length - 1];
  return (
    typeof parent === 'object' &&
    parent !== null &&
    !Array.isArray(parent) &&
    key !== undefined &&
    (parent as Record<PropertyKey, unknown>)[key] === undefined
  );
}

function describeIssue(issue: Issue, input: unknown): string {
  const path = issue.path;
  if (isMissing(issue, input)) {
    const field = String(path[path.length - 1]);
    return `missing field \`${field}\`${nestedAt(path.slice(0, -1))}`;
  }
  const value = valueAt(input, path);
  switch (issue.code) {
    case 'invalid_type':
      return `invalid type: expected ${TYPE_NAMES[issue.expected] ?? issue.expected}${at(path)}`;
    case 'invalid_value':
      if (typeof value === 'string') {
        return `unknown variant \`${value}\`, expected ${oneOf(issue.values)}${fieldAt(path)}`;
      }
      return issue.values.every((v) => typeof v === 'string')
        ? `invalid type: expected string${at(path)}`
        : `invalid value: expected ${oneOf(issue.values)}${at(path)}`;
    case 'invalid_union':
      if ('options' in issue && issue.options !== undefined && typeof value === 'string') {
        return `unknown variant \`${value}\`, expected ${oneOf(issue.options)}${fieldAt(path)}`;
      }
      return `data did not match any variant${at(path)}`;
    case 'too_small':
      return `invalid value: expected ${issue.origin} ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}${at(path)}`;
    case 'too_big':
      return `invalid value: expected ${issue.origin} ${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}${at(path)}`;
    case 'unrecognized_keys':
      return `unknown field \`${issue.keys[0] ?? ''}\`${nestedAt(path)}`;
    default:
      return `invalid value${at(path)}: ${issue.message}`;
  }
}

/**
 * One message for a failed parse, like serde: the first type/value problem in schema order, or
 * if there is none, the first missing field.
 */
function describeIssues(issues: readonly Issue[], input: unknown): string {
  const first = issues.find((i) => !isMissing(i, input)) ?? issues[0];
  return first === undefined ? 'invalid params' : describeIssue(first, input);
}

type FastCheck = (input: unknown) => boolean;

/** Each params schema's fast check (null: the schema has none), compiled on first use. */
const fastChecks = new WeakMap<z.ZodType, FastCheck | null>();

type Def = { type: string; innerType?: z.ZodType; checks?: unknown[] };
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** A check of one member's value; undefined means the member is absent. */
function valueCheck(schema: z.ZodType, optional: boolean): FastCheck | null {
  const def = defOf(schema);
  if (def.checks !== undefined && def.checks.length > 0) return null;
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'unknown':
      return optional ? () => true : null;
    case 'nullable': {
      const inner = def.innerType && valueCheck(def.innerType, optional);
      return inner ? (v) => v === null || inner(v) : null;
    }
    case 'optional': {
      const inner = def.innerType && valueCheck(def.innerType, true);
      return inner ? (v) => v === undefined || inner(v) : null;
    }
    default:
      return null;
  }
}

/**
 * A check that accepts only input the schema's parse returns unchanged (same members, same
 * values; the input keeps its own member order), so the input itself can be used: for a plain object schema (unknown members stripped)
 * whose members are strings, booleans or unknown values, optional or nullable — the shape of the
 * tool-call params, parsed on every call. Input it does not accept (unknown members to strip, a
 * wrong type, anything else) goes through the schema as before, errors and all. Null for other
 * schemas.
 */
export function compileFastCheck(schema: z.ZodType): FastCheck | null {
  const def = defOf(schema) as Def & { shape?: Record<string, z.ZodType>; catchall?: unknown };
  if (def.type !== 'object' || def.catchall !== undefined || def.shape === undefined) return null;
  if (def.checks !== undefined && def.checks.length > 0) return null;
  const members: [string, FastCheck, boolean][] = [];
  for (const [key, member] of Object.entries(def.shape)) {
    const optional = defOf(member).type === 'optional';
    const check = valueCheck(member, optional);
    if (check === null) return null;
    members.push([key, check, optional]);
  }
  return (input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return false;
    if (Object.getPrototypeOf(input) !== Object.prototype) return false;
    const object = input as Record<string, unknown>;
    let present = 0;
    for (const [key, check, optional] of members) {
      if (!Object.prototype.hasOwnProperty.call(object, key)) {
        if (!optional) return false;
        continue;
      }
      const value = object[key];
      if (value === undefined || !check(value)) return false;
      present += 1;
    }
    // Only known members (else the schema strips the others: parse it).
    return Object.keys(object).length === present;
  };
}

/**
 * Validate request or notification params. Absent or null params are read as `{}` when the
 * schema does not accept them itself, so methods whose params are all optional work without
 * params. Throws `ProtocolError` -32600 with a Codex-style message; the zod issues and the
 * method are kept on `cause` (not sent).
 */
export function parseParams<S extends z.ZodType>(
  schema: S,
  params: unknown,
  method: string,
): ParsedOk<S> {
  let fast = fastChecks.get(schema);
  if (fast === undefined) fastChecks.set(schema, (fast = compileFastCheck(schema)));
  if (fast !== null && fast(params)) return params as ParsedOk<S>;
  let input = params;
  let result = schema.safeParse(input);
  if (!result.success && (params === undefined || params === null)) {
    input = {};
    result = schema.safeParse(input);
  }
  if (result.success) return result.data;
  throw new ProtocolError(
    ErrorCode.InvalidRequest,
    `Invalid request: ${describeIssues(result.error.issues, input)}`,
    undefined,
    { cause: { method, issues: result.error.issues } },
  );
}

/**
 * Check a value we are about to send against its schema (tests and debug builds). Returns the
 * parsed value; throws `ProtocolError` -32603 naming the schema's title and the problem.
 */
export function validateOutgoing<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const title = (z.globalRegistry.get(schema) as { title?: unknown } | undefined)?.title;
  const name = typeof title === 'string' ? title : 'value';
  throw new ProtocolError(
    ErrorCode.InternalError,
    `invalid outgoing ${name}: ${describeIssues(result.error.issues, value)}`,
    undefined,
    { cause: result.error },
  );
}
