// docs/adr/README.md is the index of the decision records: it must list exactly the ADR files
// in docs/adr, each with the title of its heading, and mark a record superseded (by which one)
// if and only if the record's first line says so — `> Superseded by [N](file): …` — so a reader
// who opens a superseded record learns it at once, and the index never drifts from the folder.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { REPO_ROOT } from '../helpers/fixtures.js';

const ADR_DIR = join(REPO_ROOT, 'docs/adr');
const ADR_FILE = /^(\d{4})-[a-z0-9-]+\.md$/;
const ROW =
  /^\| \[(\d{4})\]\(([^)]+)\) \| (.+) \| (accepted|superseded by \[(\d{4})\]\(([^)]+)\)) \|$/;
const SUPERSEDED_LINE = /^> Superseded by \[(\d{4})\]\(([^)]+)\): \S/;
const HEADING = /^# (\d{4}) — (.+)$/;

interface IndexRow {
  readonly number: string;
  readonly file: string;
  readonly title: string;
  /** The number of the record that supersedes it, or null (accepted). */
  readonly supersededBy: string | null;
  readonly supersededByFile: string | null;
}

/** The rows of the index's table (lines that look like rows but do not parse are problems). */
function indexRows(index: string, problems: string[]): IndexRow[] {
  const rows: IndexRow[] = [];
  for (const line of index.split('\n')) {
    if (!/^\| \[\d{4}\]/.test(line)) continue;
    const m = ROW.exec(line);
    if (m === null) {
      problems.push(
        `README.md: a row that does not read "| [N](file) | title | status |": ${line}`,
      );
      continue;
    }
    rows.push({
      number: m[1]!,
      file: m[2]!,
      title: m[3]!,
      supersededBy: m[5] ?? null,
      supersededByFile: m[6] ?? null,
    });
  }
  return rows;
}

/**
 * Every way the index and the records disagree (empty when they agree). `records` maps each ADR
 * file name in the folder to its text.
 */
export function adrIndexProblems(index: string, records: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  const rows = indexRows(index, problems);
  const listed = new Map(rows.map((r) => [r.file, r]));
  if (listed.size !== rows.length) problems.push('README.md lists a file more than once');
  for (const file of records.keys()) {
    if (!listed.has(file)) problems.push(`${file} is not listed in README.md`);
  }
  const byNumber = new Map(rows.map((r) => [r.number, r]));
  for (const row of rows) {
    const text = records.get(row.file);
    if (text === undefined) {
      problems.push(`README.md lists ${row.file}, which is not in docs/adr`);
      continue;
    }
    if (!row.file.startsWith(`${row.number}-`)) {
      problems.push(`README.md links ${row.file} as ${row.number}`);
    }
    const lines = text.split('\n');
    const heading = lines.find((l) => l.startsWith('# '));
    const h = heading === undefined ? null : HEADING.exec(heading);
    if (h === null) problems.push(`${row.file}: no "# ${row.number} — title" heading`);
    else {
      if (h[1] !== row.number) problems.push(`${row.file}: its heading is numbered ${h[1]}`);
      if (h[2] !== row.title) {
        problems.push(`${row.file}: README.md's title "${row.title}" is not its heading "${h[2]}"`);
      }
    }
    const first = SUPERSEDED_LINE.exec(lines[0] ?? '');
    if (row.supersededBy === null) {
      if (first !== null || lines[0]?.startsWith('> Superseded')) {
        problems.push(`${row.file}: its first line says superseded, README.md says accepted`);
      }
      continue;
    }
    if (first === null) {
      problems.push(
        `${row.file}: README.md says superseded by ${row.supersededBy}; its first line must read "> Superseded by [${row.supersededBy}](${row.supersededByFile}): …"`,
      );
    } else if (first[1] !== row.supersededBy || first[2] !== row.supersededByFile) {
      problems.push(
        `${row.file}: its first line says superseded by [${first[1]}](${first[2]}), README.md by [${row.supersededBy}](${row.supersededByFile})`,
      );
    }
    const by = byNumber.get(row.supersededBy);
    if (by === undefined || by.file !== row.supersededByFile) {
      problems.push(
        `${row.file}: superseded by ${row.supersededByFile}, which README.md does not list`,
      );
    } else if (!(records.get(by.file) ?? '').includes(row.number)) {
      problems.push(`${by.file} supersedes ${row.file} but never names ${row.number}`);
    }
  }
  return problems;
}

function readRecords(): Map<string, string> {
  const records = new Map<string, string>();
  for (const name of readdirSync(ADR_DIR).sort()) {
    if (ADR_FILE.test(name)) records.set(name, readFileSync(join(ADR_DIR, name), 'utf8'));
  }
  return records;
}

describe('docs/adr/README.md, the index of the decision records', () => {
  it('lists exactly the ADR files, with their titles and whether each is superseded', () => {
    const index = readFileSync(join(ADR_DIR, 'README.md'), 'utf8');
    const records = readRecords();
    expect(records.size).toBeGreaterThan(30);
    expect(adrIndexProblems(index, records)).toEqual([]);
    // Nothing but ADR files and the index in the folder.
    const others = readdirSync(ADR_DIR).filter((n) => n !== 'README.md' && !ADR_FILE.test(n));
    expect(others).toEqual([]);
    for (const row of indexRows(index, [])) {
      if (row.supersededByFile) expect(existsSync(join(ADR_DIR, row.supersededByFile))).toBe(true);
    }
  });

  it('finds every kind of disagreement', () => {
    const records = new Map([
      ['0001-a.md', '# 0001 — A\n\ntext\n'],
      ['0002-b.md', '> Superseded by [0003](0003-c.md): see 0003.\n\n# 0002 — B\n'],
      ['0003-c.md', '# 0003 — C\n\nReplaces 0002.\n'],
    ]);
    const good = [
      '| [0001](0001-a.md) | A | accepted |',
      '| [0002](0002-b.md) | B | superseded by [0003](0003-c.md) |',
      '| [0003](0003-c.md) | C | accepted |',
    ];
    expect(adrIndexProblems(good.join('\n'), records)).toEqual([]);

    const without = (i: number) => good.filter((_, j) => j !== i).join('\n');
    expect(adrIndexProblems(without(0), records)).toEqual(['0001-a.md is not listed in README.md']);
    expect(
      adrIndexProblems([...good, '| [0004](0004-d.md) | D | accepted |'].join('\n'), records),
    ).toEqual(['README.md lists 0004-d.md, which is not in docs/adr']);
    expect(adrIndexProblems(good.join('\n').replace('| A |', '| Aa |'), records)).toEqual([
      '0001-a.md: README.md\'s title "Aa" is not its heading "A"',
    ]);
    // The index says superseded, the record's first line does not …
    const plainB = new Map(records).set('0002-b.md', '# 0002 — B\n');
    expect(adrIndexProblems(good.join('\n'), plainB)).toEqual([
      '0002-b.md: README.md says superseded by 0003; its first line must read "> Superseded by [0003](0003-c.md): …"',
    ]);
    // … and the other way round.
    const acceptedB = good.join('\n').replace('superseded by [0003](0003-c.md)', 'accepted');
    expect(adrIndexProblems(acceptedB, records)).toEqual([
      '0002-b.md: its first line says superseded, README.md says accepted',
    ]);
    // Superseded further down is not the first line.
    const lateB = new Map(records).set(
      '0002-b.md',
      '# 0002 — B\n\n> Superseded by [0003](0003-c.md): x\n',
    );
    expect(adrIndexProblems(good.join('\n'), lateB)).toHaveLength(1);
    // The superseding record must name the one it supersedes.
    const silentC = new Map(records).set('0003-c.md', '# 0003 — C\n');
    expect(adrIndexProblems(good.join('\n'), silentC)).toEqual([
      '0003-c.md supersedes 0002-b.md but never names 0002',
    ]);
  });
});
