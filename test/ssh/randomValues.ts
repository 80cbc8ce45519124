/**
 * Random strings for the quoting property test, from a seeded generator (a seam we own: the seed
 * is printed on failure and `MCPRT_PROPERTY_SEED` replays it). Values mix shell metacharacters,
 * quotes, `$`, backslashes, newlines, option-like text and unicode (multi-byte, combining, emoji,
 * bidi controls) — every valid scalar value except NUL, which argv and environments cannot hold.
 */

/** mulberry32: small, fast, deterministic. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  "'",
  '"',
  '`',
  '$',
  '$HOME',
  '${PATH}',
  '$(id)',
  '`id`',
  '\\',
  '\\\\',
  "\\'",
  '\\n',
  '!',
  '!!',
  '*',
  '?',
  '[a-z]',
  ';',
  '&',
  '&&',
  '|',
  '||',
  '<',
  '>',
  '>>',
  '(',
  ')',
  '{',
  '}',
  '~',
  '~root',
  '#',
  '=',
  '%',
  '%s',
  "'\\''",
  '-',
  '--',
  '-n',
  '-e',
  'a',
  'Z',
  '0',
  'word',
  'é',
  'ü\u0301',
  '日本語',
  '🚀',
  '👩‍💻',
  '\u202e',
  '\u00a0',
  '\u2028',
  '\u0001',
  '\u007f',
  '\u00ff',
];

function randomScalar(random: () => number): string {
  for (;;) {
    const cp = 1 + Math.floor(random() * 0x10ffff);
    if (cp >= 0xd800 && cp <= 0xdfff) continue; // surrogates are not scalar values
    return String.fromCodePoint(cp);
  }
}

export function randomValue(random: () => number): string {
  const length = Math.floor(random() * 12);
  let value = '';
  for (let i = 0; i < length; i += 1) {
    value += random() < 0.8 ? PIECES[Math.floor(random() * PIECES.length)]! : randomScalar(random);
  }
  return value;
}
