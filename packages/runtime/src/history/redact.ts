/**
 * What history keeps of a call (docs/tool-calls.md): arguments, results and error texts with
 * secrets replaced by `[REDACTED]`, and results cut to a byte budget with an explicit
 * truncation marker. Pure functions; the caller still gets the full result.
 *
 * A key is secret when, split into words (at `_`, `-`, `.`, spaces and camelCase) and lowercased,
 * it names a token, secret, password, auth value, cookie, credential, session or key — matched so
 * that look-alikes are not (`keyboard`, `monkey`, `author`, `compass`, `passenger` are kept). Its
 * value is replaced unless it is a number, boolean or null (counts and flags such as
 * `max_tokens`). Strings everywhere are scanned for secret values: `NAME=value`,
 * `"name": "value"`, `name: value`, `'name': 'value'` and `name = "value"` with a secret name
 * (environment assignments, URL query parameters, JSON, YAML, Python and TOML text; an unquoted
 * number or `true`/`false`/`null` after `name:` is kept, as a count or a flag),
 * `Authorization:`/`Cookie:` header lines and quoted or assigned authorization values of any
 * length, `Bearer …` and `Basic <base64 user:password>` in free text, URL user-info, private-key
 * blocks (one whose END line is missing, to the end of the text) and well-known token formats
 * (GitHub, Slack, OpenAI/Anthropic, AWS, GitLab, Google, JWTs; issue #33). `redact_keys` adds key
 * names (matched the same way); with `redact_keys_replace = true` they are the only secret keys.
 */

export const REDACTED = '[REDACTED]';

export interface RedactOptions {
  /** `redact_keys_replace`: only the given keys are secret (value patterns still apply). */
  readonly replaceDefaults?: boolean;
}

/** Words of a key name: split at non-alphanumerics and camelCase, lowercased. */
function words(key: string): string[] {
  return (key.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? []).map((w) => w.toLowerCase());
}

const normalize = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Secret as a substring of the normalised key (`githubtoken`, `clientsecret`, `dbpassword`). */
const CONTAINS =
  /token|secret|passw(or)?d|passphrase|passcode|cookie|credential|session|bearer|jwt|apikey|privatekey|accesskey|secretkey|signingkey|clientkey/;
/** Secret as a whole word (`db_pass`, `auth`, `oauth`, `authorization`, `sortKey`). */
const WORD =
  /^(?:pass|pwd|keys?|creds|\w*auth|auth(?:n|z|orization|orize[ds]?|enticat\w*|header|code)|(?:api|private|secret|access|signing|encryption|master|ssh|gpg|pgp|license|client|hmac|crypto)keys?)$/;

function isDefaultSecretKey(key: string): boolean {
  return CONTAINS.test(normalize(key)) || words(key).some((w) => WORD.test(w));
}

/** Query parameters that are secret in a URL only (OAuth codes, signed-URL signatures). */
const URL_ONLY = new Set(['code', 'sig', 'signature']);

/** `Basic <base64>`: only when the base64 decodes to printable `user:password` text. */
function basicCredentials(value: string): boolean {
  if (value.length < 4 || value.length % 4 === 1) return false;
  const decoded = Buffer.from(value, 'base64').toString('latin1');
  return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(decoded);
}

const PATTERNS: readonly [RegExp, string | ((...groups: string[]) => string)][] = [
  // A private-key block; one whose END line is missing (cut off) is redacted to the end.
  [
    /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----|[\s\S]*)/g,
    REDACTED,
  ],
  // GitHub, Slack, OpenAI/Anthropic, AWS access key ids, GitLab, Google API keys, JWTs.
  [
    /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|xox[abposr]-[A-Za-z0-9-]{10,}|sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Za-z])|glpat-[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{35}|eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*)/g,
    REDACTED,
  ],
  // https://user:password@host: the whole user-info.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/:@]+:[^\s/@]+@/gi, (_m, head) => `${head}${REDACTED}@`],
  // An authorization value quoted or assigned (`Authorization: "Bearer x"`,
  // `'Authorization': 'Basic …'`, `authorization=Bearer x`), of any length; a quoted value
  // without its closing quote, to the end of the line.
  [
    /\b((?:proxy-)?authorization)(["']?[ \t]*)(?:(:[ \t]*)(["'])(?:(?!\4)[^\\\r\n]|\\.)*\4?|(=[ \t]*)(?:(["'])(?:(?!\6)[^\\\r\n]|\\.)*\6?|(?:bearer|basic|token|digest|negotiate)[ \t]+[^\s&;,"'<>]+|[^\s&;,"'<>]+))/gi,
    (_m, name, q, colon, quote, equals, quote2) =>
      colon !== undefined
        ? `${name}${q}${colon}${quote}${REDACTED}${quote}`
        : `${name}${q}${equals}${quote2 ?? ''}${REDACTED}${quote2 ?? ''}`,
  ],
  // Header lines: the rest of the line (`Authorization: Bearer x`, `Cookie: …`).
  [
    /\b(authorization|proxy-authorization|cookie|set-cookie|x-api-key)([ \t]*:[ \t]*)(?!["'\s])[^\r\n]+/gi,
    (_m, name, sep) => `${name}${sep}${REDACTED}`,
  ],
  // `Bearer x` in free text: a value with a digit, `_~+/-=` or an inner `.`, or 20+ letters
  // (not `the bearer of news`, `a bearer token.`).
  [
    /\b(bearer)([ \t]+)(?=[A-Za-z0-9._~+/-]*[0-9_~+/=-]|[A-Za-z0-9._~+/-]*\.[A-Za-z0-9]|[A-Za-z]{20})[A-Za-z0-9._~+/-]*[A-Za-z0-9_~+/-]=*/gi,
    (_m, word, space) => `${word}${space}${REDACTED}`,
  ],
  // `Basic dXNlcjpwYXNz` in free text: only a real base64 `user:password`.
  [
    /\b(basic)([ \t]+)([A-Za-z0-9+/]{4,}={0,2})(?![A-Za-z0-9+/=])/gi,
    (m, word, space, value) => (basicCredentials(value) ? `${word}${space}${REDACTED}` : m),
  ],
];

/**
 * Whether `text` can hold a secret value at all: every pattern below needs one of these — `=`
 * (NAME=value), `:` (name: value, headers, URL user-info), a quote, `bearer`/`basic` or a token's
 * or key block's fixed prefix. Strings with none skip the scans.
 */
const MAYBE_SECRET =
  /[="':]|bearer|basic|-----BEGIN|gh[pousr]_|github_pat_|xox[abposr]-|sk-|AKIA|ASIA|glpat-|AIza|eyJ/i;

/** An unquoted value kept under a secret name in `name: value` text: a count, a flag. */
const SCALAR_TEXT = /^(?:[-+]?\d+(?:\.\d+)?|true|false|null|none)$/i;

const KEY_CACHE_SIZE = 4096;

/** `out[key] = value`, also for a key named `__proto__` (an own property, as JSON.parse makes). */
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else out[key] = value;
}

export class Redactor {
  private readonly extra: ReadonlySet<string>;
  private readonly defaults: boolean;
  /** Verdicts of keys seen (the same few keys recur in every call), bounded. */
  private readonly keys = new Map<string, boolean>();

  constructor(keys: readonly string[] = [], options: RedactOptions = {}) {
    this.extra = new Set(keys.map(normalize).filter((k) => k !== ''));
    this.defaults = options.replaceDefaults !== true;
  }

  isSecretKey(key: string): boolean {
    let secret = this.keys.get(key);
    if (secret === undefined) {
      secret =
        this.extra.has(normalize(key)) ||
        words(key).some((w) => this.extra.has(w)) ||
        (this.defaults && isDefaultSecretKey(key));
      if (this.keys.size >= KEY_CACHE_SIZE) this.keys.clear();
      this.keys.set(key, secret);
    }
    return secret;
  }

  /**
   * `value` with secret keys' values replaced and every string scanned. Copy on write: the parts
   * with nothing to redact are the input's own (the whole input when nothing is secret).
   */
  value(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const inner: unknown = value[i];
        const redacted = this.value(inner);
        if (out === undefined && redacted !== inner) out = value.slice(0, i);
        out?.push(redacted);
      }
      return out ?? value;
    }
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    let out: Record<string, unknown> | undefined;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const inner = object[key];
      const redacted = this.isSecretKey(key) && !isScalarFlag(inner) ? REDACTED : this.value(inner);
      if (out === undefined && redacted !== inner) {
        out = {};
        for (let j = 0; j < i; j++) setOwn(out, keys[j]!, object[keys[j]!]);
      }
      if (out !== undefined) setOwn(out, key, redacted);
    }
    return out ?? value;
  }

  /** `text` with the secret values it contains replaced. */
  text(text: string): string {
    if (!MAYBE_SECRET.test(text)) return text;
    let out = text;
    for (const [pattern, replacement] of PATTERNS) {
      out = out.replace(pattern, replacement as (substring: string, ...args: string[]) => string);
    }
    // "name": "value" (JSON text)
    out = out.replace(
      /"([^"\\\n]{1,100})"(\s*:\s*)"(?:[^"\\]|\\.)*"/g,
      (match, name: string, sep: string) =>
        this.isSecretKey(name) ? `"${name}"${sep}"${REDACTED}"` : match,
    );
    // NAME=value (environment assignments, command-line options, URL query parameters)
    out = out.replace(
      /(^|[^A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]{0,100})=(?!\[REDACTED\])("[^"]*"|'[^']*'|[^\s&;,"'<>#)}\]]+)/g,
      (match, before: string, name: string) =>
        this.isSecretKey(name) ||
        ((before === '?' || before === '&') && URL_ONLY.has(name.toLowerCase()))
          ? `${before}${name}=${REDACTED}`
          : match,
    );
    // name: value, 'name': 'value', name = "value" (YAML, logs, Python and TOML text, headers);
    // a quoted value without its closing quote, to the end of the line.
    out = out.replace(
      /(^|[^A-Za-z0-9_.-])(["']?)([A-Za-z_][A-Za-z0-9_.-]{0,100})\2(?:([ \t]*(?<!:):(?![:/=])[ \t]*)(?!\[REDACTED\])("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|[^\s"'`<>,;)}\]]+)|([ \t]*=[ \t]*)("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?))/g,
      (
        match,
        before: string,
        quote: string,
        name: string,
        colon: string | undefined,
        value1: string | undefined,
        equals: string | undefined,
        value2: string | undefined,
      ) => {
        const value = (colon !== undefined ? value1 : value2) ?? '';
        if (!this.isSecretKey(name) || SCALAR_TEXT.test(value)) return match;
        const q = value.startsWith('"') || value.startsWith("'") ? value[0]! : '';
        if (value === `${q}${REDACTED}${q}`) return match;
        return `${before}${quote}${name}${quote}${colon ?? equals}${q}${REDACTED}${q}`;
      },
    );
    return out;
  }
}

const isScalarFlag = (v: unknown) => v === null || typeof v === 'number' || typeof v === 'boolean';

/** Arguments as history stores them: `keys` add to the default secret keys (see module doc). */
export function redactArguments(
  value: unknown,
  keys: readonly string[],
  options: RedactOptions = {},
): unknown {
  return new Redactor(keys, options).value(value);
}

/** A text (an error message) as history stores it. */
export function redactText(
  text: string,
  keys: readonly string[] = [],
  options: RedactOptions = {},
): string {
  return new Redactor(keys, options).text(text);
}

export interface StoredResult {
  readonly json: string | null;
  readonly truncated: boolean;
}

/**
 * Serialize a result for storage. Over `maxBytes`, store instead
 * `{"truncated": true, "originalBytes": N, "preview": "<first bytes of the JSON>…"}`.
 */
export function capResult(result: unknown, maxBytes: number): StoredResult {
  if (result === undefined) return { json: null, truncated: false };
  const json = JSON.stringify(result);
  // A UTF-16 code unit is at most 3 UTF-8 bytes: a short text needs no byte count.
  if (json !== undefined && json.length * 3 <= maxBytes) return { json, truncated: false };
  const bytes = Buffer.byteLength(json);
  if (bytes <= maxBytes) return { json, truncated: false };
  const previewBudget = Math.max(0, maxBytes - 100);
  const preview = Buffer.from(json)
    .subarray(0, previewBudget)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return {
    json: JSON.stringify({ truncated: true, originalBytes: bytes, preview: `${preview}…` }),
    truncated: true,
  };
}

/** A value that runs every key rule and every text pattern (see `warmUpRedaction`). */
const WARM_UP_SAMPLE = {
  apiKey: 'k',
  sortKey: 1,
  note: 'a=b "token": "t" https://u:p@h Authorization: x Bearer abcdef12.3 -----BEGIN ghp_ sk- AKIA AIza eyJ',
  more: 'pwd: \'x\' key = "k" authorization=y Basic dXNlcjpwYXNz glpat- ASIA',
};

/**
 * Run the redaction rules once on a throw-away sample, twice (V8 compiles a regular expression
 * to bytecode on its first use and to machine code on a later one), so that the first recorded
 * call of a process does not pay for compiling them (ADR 0024). No effect on any result.
 */
export function warmUpRedaction(): void {
  for (let i = 0; i < 2; i++) new Redactor([]).value(WARM_UP_SAMPLE);
}
