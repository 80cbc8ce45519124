/**
 * Unit tests of history redaction (issue #14, finding 4; issue #33, F2 and F3): secret-looking keys matched after
 * normalising (case, `_`, `-`, camelCase) at any depth, without redacting look-alikes; secret
 * values found inside strings (`Bearer …`, `…_TOKEN=…`, URL query secrets, JSON text, known token
 * formats); `redact_keys` adding to the defaults, `redact_keys_replace` keeping only them.
 * Issue #33: every documented secret format (table), random non-secret text unchanged (seeded
 * property test), look-alikes kept, and a cut result never keeping part of a secret.
 */

import { describe, expect, it } from 'vitest';

import { capResult, REDACTED, redactArguments, redactText } from './redact.js';

const R = REDACTED;

describe('secret-looking keys', () => {
  it('the cases of the issue, at any depth', () => {
    expect(
      redactArguments(
        {
          githubToken: 'g1',
          auth_token: 'a1',
          private_key: 'k1',
          Cookie: 'c1',
          credentials: { user: 'u', pass: 'p1' },
          nested: [{ 'X-Api-Key': 'x1', apiKey: 'x2', APIKEY: 'x3' }],
          login: { pass: 'p2', password: 'p3', passwd: 'p4', client_secret: 's1' },
          session: 's2',
          sessionId: 's3',
          authorization: 'a2',
          oauth: { refresh_token: 'r1' },
        },
        [],
      ),
    ).toEqual({
      githubToken: R,
      auth_token: R,
      private_key: R,
      Cookie: R,
      credentials: R,
      nested: [{ 'X-Api-Key': R, apiKey: R, APIKEY: R }],
      login: { pass: R, password: R, passwd: R, client_secret: R },
      session: R,
      sessionId: R,
      authorization: R,
      oauth: R,
    });
  });

  it('look-alikes are kept; numbers and booleans under a secret key are kept (counts, flags)', () => {
    const kept = {
      keyboard: 'qwerty',
      monkey: 'banana',
      author: 'me',
      authority: 'x',
      compass: 'north',
      bypass: 'yes',
      passenger: 'p',
      hockey: 'puck',
      keyword: 'k',
      max_tokens: 100,
      authRequired: true,
      sessionTimeout: null,
    };
    expect(redactArguments(kept, [])).toEqual(kept);
  });

  it('redact_keys adds to the defaults; with replace only the listed keys count', () => {
    const args = { ssn: '123', userSSN: '456', password: 'p', note: 'n' };
    expect(redactArguments(args, ['ssn'])).toEqual({
      ssn: R,
      userSSN: R,
      password: R,
      note: 'n',
    });
    expect(redactArguments(args, ['ssn'], { replaceDefaults: true })).toEqual({
      ssn: R,
      userSSN: R,
      password: 'p',
      note: 'n',
    });
  });
});

describe('secret values inside strings', () => {
  it('assignments, bearer tokens, URL query secrets and userinfo', () => {
    expect(redactText('GITHUB_TOKEN=ghs_abc123 PATH=/bin')).toBe(`GITHUB_TOKEN=${R} PATH=/bin`);
    expect(redactText('export DB_PASSWORD="s3 cret"; echo')).toBe(`export DB_PASSWORD=${R}; echo`);
    expect(redactText('Authorization: Bearer eyJhbGciOi.abc')).toBe(`Authorization: ${R}`);
    expect(redactText('sent bearer abc.def-ghi to x')).toBe(`sent bearer ${R} to x`);
    expect(redactText('https://api.example.com/cb?state=s1&access_token=t1&code=c1&sig=g1#x')).toBe(
      `https://api.example.com/cb?state=s1&access_token=${R}&code=${R}&sig=${R}#x`,
    );
    expect(redactText('clone https://me:hunter2@git.example.com/r.git')).toBe(
      `clone https://${R}@git.example.com/r.git`,
    );
    expect(redactText('{"user":"u","apiKey":"k-1","n":{"password": "p\\"q"}}')).toBe(
      `{"user":"u","apiKey":"${R}","n":{"password": "${R}"}}`,
    );
  });

  it('well-known token formats and private keys, anywhere', () => {
    const gh = `ghp_${'a'.repeat(36)}`;
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_nature-123';
    const pem = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----';
    expect(redactText(`token ${gh} and ${jwt} and AKIAABCDEFGHIJKLMNOP`)).toBe(
      `token ${R} and ${R} and ${R}`,
    );
    expect(redactText(`key:\n${pem}\nrest`)).toBe(`key:\n${R}\nrest`);
  });

  it('ordinary text is unchanged', () => {
    const plain =
      'keyboard=us monkey=1 see https://x.test/?page=2&q=tokens author: me, the bearer of news';
    expect(redactText(plain)).toBe(plain);
  });

  it('arrays of assignments and string values of ordinary keys are scanned too', () => {
    expect(
      redactArguments(
        { env: ['PATH=/bin', 'GITHUB_TOKEN=t2'], url: 'https://x/?access_token=t1' },
        [],
      ),
    ).toEqual({ env: ['PATH=/bin', `GITHUB_TOKEN=${R}`], url: `https://x/?access_token=${R}` });
  });

  it('each value rule still applies to a string with nothing else in it (the quick pre-check)', () => {
    const gh = `ghp_${'b'.repeat(36)}`;
    const cases: [string, string][] = [
      [gh, R],
      [`xoxb-${'1'.repeat(12)}`, R],
      [`sk-${'c'.repeat(24)}`, R],
      ['AIza' + 'd'.repeat(35), R],
      ['Bearer abc.def-123', `Bearer ${R}`],
      ['TOKEN=x', `TOKEN=${R}`],
      ['https://u:pw@host', `https://${R}@host`],
      ['cookie: a=b', `cookie: ${R}`],
    ];
    for (const [text, expected] of cases) expect(redactText(text), text).toBe(expected);
  });
});

describe('copy on write', () => {
  it('returns the input itself when nothing is secret, and never changes the input', () => {
    const plain = { content: [{ type: 'text', text: 'raw: hi' }], n: 1, ok: true, none: null };
    expect(redactArguments(plain, [])).toBe(plain);
    const mixed = { a: { keep: [1, 'x'] }, b: [{ token: 's3cret' }, 'plain'], c: 'c' };
    const snapshot = JSON.stringify(mixed);
    const out = redactArguments(mixed, []) as typeof mixed;
    expect(out).toEqual({ a: { keep: [1, 'x'] }, b: [{ token: R }, 'plain'], c: 'c' });
    expect(JSON.stringify(mixed)).toBe(snapshot);
    expect(out.a).toBe(mixed.a); // untouched parts are shared
  });

  it('keeps a "__proto__" key an own key of the redacted copy', () => {
    const input = JSON.parse('{"__proto__": {"x": 1}, "password": "p"}') as object;
    const out = redactArguments(input, []);
    expect(JSON.stringify(out)).toBe(`{"__proto__":{"x":1},"password":"${R}"}`);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});

/** mulberry32 (as test/ssh/randomValues.ts): small, fast, deterministic. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('issue #33 F3: secret formats in text', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const pem = [
    '-----BEGIN PRIVATE KEY-----',
    'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
    '-----END PRIVATE KEY-----',
  ].join('\n');
  const cases: [format: string, input: string, expected: string][] = [
    ['JWT', `token ${jwt} end`, `token ${R} end`],
    ['JWT without signature', 'x eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0. y', `x ${R} y`],
    ['PEM block', `a\n${pem}\nb`, `a\n${R}\nb`],
    ['PEM block, RSA', pem.replace(/PRIVATE/g, 'RSA PRIVATE'), R],
    ['PEM block without END', 'key:\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADAN', `key:\n${R}`],
    ['header Bearer, letters only', 'Authorization: Bearer abcdef', `Authorization: ${R}`],
    ['header Bearer, one letter', 'Authorization: Bearer x', `Authorization: ${R}`],
    ['header Basic', 'authorization: Basic dXNlcjpwYXNz', `authorization: ${R}`],
    ['curl header', `curl -H 'Authorization: Bearer x' u`, `curl -H 'Authorization: ${R}`],
    ['quoted header value', 'Authorization: "Bearer x"', `Authorization: "${R}"`],
    ['Python dict header', `{'Authorization': 'Bearer x'}`, `{'Authorization': '${R}'}`],
    [
      'quoted header value without its closing quote',
      'Authorization: "Bearer x',
      `Authorization: "${R}"`,
    ],
    ['x-api-key quoted', 'x-api-key: "k1"', `x-api-key: "${R}"`],
    ['JSON header', '{"Authorization": "Bearer x"}', `{"Authorization": "${R}"}`],
    ['assigned header', 'authorization=Bearer abc next', `authorization=${R} next`],
    ['free-text Bearer, short', 'sent Bearer ab1 to x', `sent Bearer ${R} to x`],
    ['free-text Bearer, long letters', `Bearer ${'q'.repeat(24)}`, `Bearer ${R}`],
    ['free-text Basic', 'use Basic dXNlcjpwYXNz', `use Basic ${R}`],
    ['password=value', 'password=hunter2 next', `password=${R} next`],
    ['db_password: value', 'db_password: hunter2', `db_password: ${R}`],
    ['secret: value', 'the secret: s3 cr3t', `the secret: ${R} cr3t`],
    ['GITHUB_TOKEN: value', 'GITHUB_TOKEN: abc', `GITHUB_TOKEN: ${R}`],
    ['pwd: quoted', `pwd: 'a b'`, `pwd: '${R}'`],
    ['password: quoted without its closing quote', 'password: "a b', `password: "${R}"`],
    ['passwd YAML', 'user: bob\npasswd: "x y"\n', `user: bob\npasswd: "${R}"\n`],
    ['api-key', 'api-key: k1', `api-key: ${R}`],
    ['apikey', 'APIKEY: k1', `APIKEY: ${R}`],
    ['api_key TOML', 'api_key = "k1"', `api_key = "${R}"`],
    ['access_key', 'aws_access_key: k1', `aws_access_key: ${R}`],
    ['private_key', 'private_key: k1', `private_key: ${R}`],
    ['client_secret JSON', '{"client_secret": "k1"}', `{"client_secret": "${R}"}`],
    ['auth', 'auth: k1', `auth: ${R}`],
    ['X-Auth-Token header', 'X-Auth-Token: k1', `X-Auth-Token: ${R}`],
    ['URL userinfo', 'see https://user:pass@host.test/p', `see https://${R}@host.test/p`],
    ['GitHub ghp_', `ghp_${'a1'.repeat(18)}`, R],
    ['GitHub gho_', `gho_${'a1'.repeat(18)}`, R],
    ['GitHub ghu_', `ghu_${'a1'.repeat(18)}`, R],
    ['GitHub ghs_', `ghs_${'a1'.repeat(18)}`, R],
    ['GitHub ghr_', `ghr_${'a1'.repeat(18)}`, R],
    ['GitHub github_pat_', `github_pat_${'A1_'.repeat(20)}`, R],
    ['OpenAI sk-', `sk-${'Ab1'.repeat(16)}`, R],
    ['OpenAI sk-proj-', `sk-proj-${'Ab1'.repeat(16)}`, R],
    ['Anthropic sk-ant-', `sk-ant-api03-${'Ab1'.repeat(30)}`, R],
    ['Slack xoxb-', 'xoxb-123456789012-abcdefABCDEF', R],
    ['Slack xoxp-', 'xoxp-123456789012-abcdefABCDEF', R],
    ['AWS AKIA', 'id AKIAIOSFODNN7EXAMPLE.', `id ${R}.`],
    ['AWS ASIA', 'ASIAIOSFODNN7EXAMPLE', R],
    ['GitLab glpat-', 'glpat-xxxxXXXXxxxx01234567', R],
    ['Google AIza', `AIza${'Sy0_-'.repeat(7)}`, R],
  ];
  it.each(cases)('%s', (_format, input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  const kept: [what: string, text: string][] = [
    ['a count without = or :', 'the token count is 5'],
    ['a count under a secret name', 'tokens: 1500, max_tokens: 4096'],
    ['a flag under a secret name', 'auth: true'],
    ['sk-learn, too short', 'install sk-learn and sk-image'],
    ['bearer in prose', 'the bearer of news; use a bearer token. Bearer tokens'],
    ['basic in prose', 'Basic usage, basic auth is basic'],
    ['Basic with a word that is no credential', 'Basic Auth'],
    ['short provider-like prefixes', 'ghp_abc gho_ xoxb-1 AKIA1234 AIza glpat-x eyJhbGci'],
    ['Rust paths', 'Token::new(x) and Secret::from(y)'],
    ['URL without user-info', 'https://host.test:8443/a?b=c'],
    ['a key without a value', 'password:\n  - x'],
    ['time of day', 'at 12:30:45'],
    ['ordinary keys', 'name: bob, author: me, keyboard: us, monkey: 1'],
    ['PEM public key', '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----'],
    ['Go short assignment', 'token := getToken()'],
    ['comparison', 'if token == "x" {'],
  ];
  it.each(kept)('keeps %s', (_what, text) => {
    expect(redactText(text)).toBe(text);
  });

  it('never leaves a marker doubled or half replaced', () => {
    for (const text of [`Authorization: ${R}`, `a=${R} b`, `"token": "${R}"`, `token: ${R}`]) {
      expect(redactText(text)).toBe(text);
    }
  });

  it('property: random non-secret text passes through unchanged (2000 seeded cases)', () => {
    const seed = Number(process.env.MCPRT_PROPERTY_SEED ?? 0x33f3);
    const random = seededRandom(seed);
    // Lowercase words that name no secret (no trigger word of any rule), digits, punctuation.
    const words = (
      'the a of and to in is it for on with as at by from this that be are was not or but ' +
      'count list user name file path value data result page time date error note config host ' +
      'port server client tool call text type item node line word json yaml table row column ' +
      'ok done fail open close read write send get set new old max min size hello world http'
    ).split(' ');
    const punctuation = [...'.,;:!?()[]{}-_=+*/\\"\'#%&<>|~^$`'];
    const separators = [' ', ' ', ' ', '\n', '', '\t', '  '];
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    for (let n = 0; n < 2000; n++) {
      let text = '';
      const length = 1 + Math.floor(random() * 40);
      for (let i = 0; i < length; i++) {
        const r = random();
        const piece =
          r < 0.55
            ? pick(words)
            : r < 0.7
              ? String(Math.floor(random() * 100000))
              : pick(punctuation);
        text += piece + pick(separators);
      }
      expect(redactText(text), `seed ${seed}, case ${n}: ${JSON.stringify(text)}`).toBe(text);
    }
  });
});

describe('issue #33 F2: a capped result keeps no part of a secret', () => {
  const body = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7'.repeat(20);
  const pem = `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`;
  const result = {
    content: [{ type: 'text', text: `${'x'.repeat(60)}\n${pem}\n${'y'.repeat(2000)}` }],
  };

  it('redacting the whole result before the cut leaves nothing of a key across it', () => {
    const stored = capResult(redactArguments(result, []), 256);
    expect(stored.truncated).toBe(true);
    expect(stored.json).not.toContain('BEGIN');
    expect(stored.json).not.toContain('MIIE');
  });

  it('a key block whose END line was cut off is redacted to the end of the text', () => {
    const { preview } = JSON.parse(capResult(result, 256).json!) as { preview: string };
    expect(preview).toContain('-----BEGIN PRIVATE KEY-----\\nMIIE'); // what the cut alone leaves
    const redacted = redactText(preview);
    expect(redacted).not.toContain('BEGIN');
    expect(redacted).not.toContain('MIIE');
    expect(redacted.endsWith(R)).toBe(true);
  });
});
