/**
 * Unit tests of history redaction (issue #14, finding 4): secret-looking keys matched after
 * normalising (case, `_`, `-`, camelCase) at any depth, without redacting look-alikes; secret
 * values found inside strings (`Bearer …`, `…_TOKEN=…`, URL query secrets, JSON text, known token
 * formats); `redact_keys` adding to the defaults, `redact_keys_replace` keeping only them.
 */

import { describe, expect, it } from 'vitest';

import { REDACTED, redactArguments, redactText } from './redact.js';

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
      `clone https://me:${R}@git.example.com/r.git`,
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
      ['https://u:pw@host', `https://u:${R}@host`],
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
