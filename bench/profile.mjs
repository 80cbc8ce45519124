#!/usr/bin/env node
// Summarises V8 CPU profiles (`node --cpu-prof`): self time per function and per package/file,
// the view used to find where a missed target's time goes (docs/performance.md).
//   node bench/profile.mjs FILE.cpuprofile [--top N]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 30;
if (!file) {
  console.error('usage: node bench/profile.mjs FILE.cpuprofile [--top N]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i] ?? 0));
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
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
console.log('\nby package / file (self time)');
for (const [k, us] of sum(fileKey).slice(0, 15)) console.log(`${pct(us)}  ${k}`);
console.log('\nby function (self time)');
for (const [k, us] of sum(fnKey).slice(0, top)) console.log(`${pct(us)}  ${k}`);
