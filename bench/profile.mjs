#!/usr/bin/env node
// Summarises V8 CPU profiles (`node --cpu-prof`): self time per function and per package/file,
// the view used to find where a missed target's time goes (docs/performance.md).
//   node bench/profile.mjs FILE.cpuprofile [--top N] [--from FUNCTION] [--for MS]
// --from counts only samples taken after the first one whose stack holds FUNCTION (e.g.
// `--from callTool`: the call phase, without start-up and module loading); --for stops MS
// milliseconds later (e.g. the first calls only). Idle time is left out of the percentages
// (printed apart).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find(
  (a, i) => !a.startsWith('--') && !['--top', '--from', '--for'].includes(args[i - 1]),
);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 30;
const fromAt = args.indexOf('--from');
const from = fromAt >= 0 ? args[fromAt + 1] : undefined;
const forAt = args.indexOf('--for');
const forMs = forAt >= 0 ? Number(args[forAt + 1]) : Infinity;
if (!file || (fromAt >= 0 && !from)) {
  console.error(
    'usage: node bench/profile.mjs FILE.cpuprofile [--top N] [--from FUNCTION] [--for MS]',
  );
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
const inStack = (id, name) => {
  for (let at = id; at !== undefined; at = parentOf.get(at)) {
    if (byId.get(at).callFrame.functionName === name) return true;
  }
  return false;
};
const selfUs = new Map();
const deltas = profile.timeDeltas;
let counting = from === undefined;
let idleUs = 0;
let elapsedUs = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  counting ||= inStack(id, from);
  if (!counting) continue;
  elapsedUs += deltas[i] ?? 0;
  if (elapsedUs > forMs * 1000) break;
  if (byId.get(id).callFrame.functionName === '(idle)') idleUs += deltas[i] ?? 0;
  else selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i] ?? 0));
}
if (!counting) {
  console.error(`no sample has ${from} on its stack`);
  process.exit(1);
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const shortUrl = (url) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/.*\/node_modules\//, '')
    .replace(/.*\/packages\//, 'packages/')
    .replace(/.*\/bench\//, 'bench/');
const fnKey = (n) =>
  `${n.callFrame.functionName || '(anonymous)'} ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
const fileKey = (n) => {
  const url = shortUrl(n.callFrame.url);
  if (!url) return n.callFrame.functionName; // (program), (garbage collector), (idle)…
  const m = /^(@[^/]+\/[^/]+|[^/]+)/.exec(url);
  return url.startsWith('packages/')
    ? url.split('/').slice(0, 2).join('/')
    : url.startsWith('node:')
      ? url
      : (m?.[1] ?? url);
};
const sum = (keyOf) => {
  const out = new Map();
  for (const [id, us] of selfUs) {
    const k = keyOf(byId.get(id));
    out.set(k, (out.get(k) ?? 0) + us);
  }
  return [...out.entries()].sort((a, b) => b[1] - a[1]);
};
const pct = (us) => `${((us / total) * 100).toFixed(1).padStart(5)}%`;
console.log(
  `${file}: ${(total / 1000).toFixed(0)} ms busy, ${(idleUs / 1000).toFixed(0)} ms idle${from ? ` (from the first ${from}${forMs < Infinity ? `, for ${forMs} ms` : ''})` : ''}`,
);
console.log('\nby package / file (self time)');
for (const [k, us] of sum(fileKey).slice(0, 15)) console.log(`${pct(us)}  ${k}`);
console.log('\nby function (self time)');
for (const [k, us] of sum(fnKey).slice(0, top)) console.log(`${pct(us)}  ${k}`);
