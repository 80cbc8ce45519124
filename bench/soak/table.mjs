// The soak's output: the table of classes with latencies, what the chaos did, the gateway's
// footprint, examples of every failure class, the rules with their verdicts, and the JSON file
// (`--json FILE`: the same summary, with every footprint sample).
import { writeFileSync } from 'node:fs';

export const kb = (v) => (v === undefined || v === null ? '?' : `${(v / 1024).toFixed(1)} MB`);

export function printReport(s, out = console.log) {
  out('');
  out(
    `mcprt soak: ${s.options.minutes} min, ${s.options.clients} clients, ssh ${s.options.ssh ? 'on' : 'off'}`,
  );
  out('class               count     p50 ms    p99 ms');
  for (const r of s.rows)
    out(
      `${r.class.padEnd(18)} ${String(r.count).padStart(6)} ${String(r.p50 ?? '-').padStart(10)} ${String(r.p99 ?? '-').padStart(9)}`,
    );
  out(
    'ok by operation:   ' +
      s.ops.map((o) => `${o.op} ${o.count} (p50 ${o.p50} ms, p99 ${o.p99} ms)`).join('; '),
  );
  const counts = {};
  for (const e of s.chaos)
    counts[e.kind + (e.skipped ? ' (skipped)' : '')] =
      (counts[e.kind + (e.skipped ? ' (skipped)' : '')] ?? 0) + 1;
  out(
    'chaos:             ' +
      Object.entries(counts)
        .map(([k, n]) => `${k} ×${n}`)
        .join(', '),
  );
  const f = s.footprint;
  const at = (m) => (m ? `+${Math.round(m.fromMs / 1000)}…${Math.round(m.toMs / 1000)} s` : '-');
  out(
    `gateway (gen ${f.generation}): RSS ${kb(f.base?.rssKb)} → ${kb(f.last?.rssKb)}, fds ${f.base?.fds ?? '?'} → ${f.last?.fds ?? '?'} (medians of the ${f.baseline} ${at(f.base)}, of the last ${at(f.last)}; first minute, warm-up: ${kb(f.first?.rssKb)})`,
  );
  out(
    `history:           ${s.history.records} records; ${s.history.unansweredRecorded} of the unanswered calls recorded (${s.history.unansweredInProgress} left inProgress)`,
  );
  for (const [c, list] of Object.entries(s.examples))
    for (const e of list) out(`  ${c} ×${e.count}: ${e.example.slice(0, 220)}`);
  for (const l of s.leaks) out(`  leaked: ${l.pid} ${l.cmd.slice(0, 200)}`);
  for (const m of s.history.missing.slice(0, 5)) out(`  history missing: ${JSON.stringify(m)}`);
  for (const d of s.history.duplicated.slice(0, 5))
    out(`  history duplicated: ${JSON.stringify(d)}`);
  for (const w of s.history.wrongStatus.slice(0, 5)) out(`  history status: ${JSON.stringify(w)}`);
  out('rules:');
  for (const r of s.rules)
    out(`  ${r.pass ? 'pass' : r.tolerated ? 'TOLERATED' : 'FAIL'}  ${r.rule}: ${r.detail}`);
  out(s.pass ? 'soak: PASS' : 'soak: FAIL');
}

export function writeJson(file, summary) {
  writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
}
