/**
 * The words tool search matches on (toolSearch.ts): how texts split into words, which words are
 * dropped, how endings fold, and a small thesaurus of the vocabulary people use for tool tasks.
 * Lexical search cannot know that "folder" is a directory or that "remember" is about memory;
 * these lists say so. Same-meaning words fold into one at index and query time; related words
 * expand a query at a lower weight. The lists are general tool vocabulary (files, processes,
 * memory, math, time, the web); they grew while tuning on the eval's `dev` queries and were
 * checked on queries written afterwards (bench/eval/search-queries.json, `npm run eval:search`):
 * add words that people use for tasks, never a word to fit one query. Pure logic.
 */

const CAMEL = /([a-z0-9])([A-Z])/g;
const ACRONYM = /([A-Z]+)([A-Z][a-z])/g;
const NON_WORD = /[^\p{L}\p{N}]+/u;

/** Words of a text: split on anything not a letter or digit and on camelCase humps. */
export function tokenize(text: string): string[] {
  return text.replace(ACRONYM, '$1 $2').replace(CAMEL, '$1 $2').split(NON_WORD);
}

/**
 * Words too common in queries and tool texts to tell tools apart; matching them costs time over
 * large indexes and adds nothing BM25 would not discount anyway.
 */
const STOP_WORDS = new Set(
  (
    'a an and any are as at be been being by can could do does for from has have how i if in ' +
    'into is it its me my of on or our please should so some than that the their them then ' +
    'there these this those to us was we were what when where which while who will with would ' +
    'you your'
  ).split(' '),
);

/**
 * Fold common English endings (plural -s/-es/-ies, -ing, -ed, -tion/-sion, a final -e), so
 * "files", "file" and "filing" meet, as do "listed" and "listing", "entities" and "entity",
 * "creation" and "create". Not a full stemmer:
 * the same function runs over queries and documents, so a fold need only be consistent.
 */
export function stem(t: string): string {
  if (t.length <= 3 || /\d/.test(t)) return t;
  let s = t;
  if (s.endsWith('ies') && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith('sses')) s = s.slice(0, -2);
  else if (/(?:x|ch|sh)es$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith('s') && !/(?:ss|us|is)$/.test(s)) s = s.slice(0, -1);
  if (s.endsWith('ing') && s.length >= 6) s = undouble(s.slice(0, -3));
  else if (s.endsWith('ed') && s.length >= 5) s = undouble(s.slice(0, -2));
  else if (/[ts]ion$/.test(s) && s.length >= 7) s = s.slice(0, -3);
  if (s.endsWith('e') && s.length > 3) s = s.slice(0, -1);
  return s;
}

/** "runn" → "run", "stopp" → "stop" (but "pass", "fill", "buzz" keep theirs). */
function undouble(s: string): string {
  const last = s[s.length - 1];
  return last !== undefined && last === s[s.length - 2] && !'lsz'.includes(last)
    ? s.slice(0, -1)
    : s;
}

/** Words that mean the same for a tool task: each folds into the first of its group. */
const SAME: readonly string[] = [
  'directory folder dir',
  'delete remove erase rm del unlink',
  'move rename relocate mv',
  'search find locate grep lookup',
  'read view cat',
  'write save',
  'edit modify change patch alter',
  'list ls enumerate',
  'execute run exec launch invoke',
  'image picture photo screenshot img png jpg jpeg gif',
  'audio sound mp3 wav',
  'text txt',
  'sum total plus addition',
  'environment env',
  'variable var',
  'relation relationship',
  'wait sleep pause delay',
  'error failure fail',
  'compress gzip zip',
  'tree hierarchy',
  'metadata meta',
  'info information',
  'all every entire whole',
  'ask elicit',
  'think thought reason reasoning',
  'millisecond ms',
  'second sec',
  'url uri',
  'repository repo',
  'configuration config',
  'credential secret',
];

/** Words a query's word suggests, matched at {@link RELATED_WEIGHT}. */
const RELATED: Readonly<Record<string, string>> = {
  remember: 'memory store knowledge entity observation',
  recall: 'memory search knowledge',
  forget: 'memory delete',
  know: 'memory knowledge',
  knowledge: 'memory graph',
  memory: 'knowledge graph',
  person: 'entity',
  people: 'entity',
  someone: 'entity',
  fact: 'observation',
  note: 'observation',
  node: 'entity',
  entity: 'node',
  link: 'relation url',
  connect: 'relation',
  add: 'create sum insert',
  create: 'new add',
  new: 'create',
  make: 'create',
  mkdir: 'create directory',
  store: 'save write memory',
  record: 'save store memory',
  calculate: 'sum math',
  compute: 'sum math',
  big: 'size',
  large: 'size',
  small: 'size',
  show: 'read list get',
  display: 'read get',
  print: 'read echo',
  open: 'read',
  look: 'read search',
  see: 'read',
  content: 'read',
  update: 'edit',
  replace: 'edit',
  overwrite: 'write',
  archive: 'compress',
  recursive: 'tree',
  permission: 'allowed access',
  allowed: 'permission access',
  access: 'allowed permission',
  pid: 'process',
  process: 'pid',
  cwd: 'directory working',
  working: 'cwd',
  confirm: 'ask',
  prompt: 'ask',
  question: 'ask',
  plan: 'think',
  reflect: 'think',
  analyze: 'think',
  debug: 'log',
  repeat: 'echo',
  echo: 'repeat',
  notify: 'notification',
  notification: 'notify',
  download: 'url',
  modified: 'info',
  timestamp: 'info time',
  test: 'spec',
  spec: 'test',
  // Everyday verbs for the usual operations on things.
  get: 'read fetch',
  fetch: 'get read download',
  retrieve: 'get read fetch',
  load: 'read open',
  dump: 'read print',
  inspect: 'read view info',
  examine: 'read view info',
  review: 'read view',
  check: 'read info',
  put: 'write save',
  place: 'write save',
  append: 'edit write',
  insert: 'create add edit',
  swap: 'replace edit',
  substitute: 'replace edit',
  copy: 'read write',
  discover: 'search list',
  largest: 'size',
  biggest: 'size',
  smallest: 'size',
  newest: 'modified time',
  latest: 'modified time',
  oldest: 'modified time',
  recent: 'modified time',
};

export const RELATED_WEIGHT = 0.7;

/** Lower-case, then stem, then fold into its group's word. */
function fold(word: string): string {
  const s = stem(word.toLowerCase());
  return CANONICAL.get(s) ?? s;
}

const CANONICAL = new Map<string, string>();
for (const group of SAME) {
  const [head, ...rest] = group.split(' ').map((w) => stem(w));
  for (const w of rest) CANONICAL.set(w, head!);
}

const EXPANSIONS = new Map<string, readonly string[]>();
for (const [word, related] of Object.entries(RELATED)) {
  const key = fold(word);
  const list = new Set([...(EXPANSIONS.get(key) ?? []), ...related.split(' ').map(fold)]);
  list.delete(key);
  EXPANSIONS.set(key, [...list]);
}

/**
 * The indexed form of a word: lower-cased, stemmed, folded into its group; null for stop words
 * and single characters (they are not indexed or searched).
 */
export function normalizeTerm(word: string): string | null {
  const t = word.toLowerCase();
  if (t.length < 2 || STOP_WORDS.has(t)) return null;
  return fold(t);
}

/** The words a (normalized) query word suggests, without itself. */
export function relatedTerms(term: string): readonly string[] {
  return EXPANSIONS.get(term) ?? [];
}
