/**
 * A small, strict parser of the Prometheus text exposition format (0.0.4), for tests that scrape
 * `/metrics`: `# HELP` / `# TYPE` lines and samples `name{label="value",…} number`. A line that
 * is none of these throws, so a malformed exposition fails the test instead of being skipped.
 */

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Exposition {
  /** `# TYPE` of each metric family. */
  readonly types: ReadonlyMap<string, string>;
  readonly samples: readonly Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"/;

export function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const fail = (why: string) => new Error(`exposition line ${i + 1}: ${why}: ${line}`);
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*)(?: (.*))?$/.exec(line);
      if (m === null) throw fail('bad comment');
      if (m[1] === 'TYPE') {
        if (!/^(counter|gauge|histogram|summary|untyped)$/.test(m[3] ?? '')) throw fail('bad type');
        types.set(m[2]!, m[3]!);
      }
      continue;
    }
    const name = NAME.exec(line)?.[0];
    if (name === undefined) throw fail('no metric name');
    let rest = line.slice(name.length);
    const labels: Record<string, string> = {};
    if (rest.startsWith('{')) {
      rest = rest.slice(1);
      while (!rest.startsWith('}')) {
        const m = LABEL.exec(rest);
        if (m === null) throw fail('bad label');
        labels[m[1]!] = m[2]!.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
        rest = rest.slice(m[0].length);
        if (rest.startsWith(',')) rest = rest.slice(1);
        else if (!rest.startsWith('}')) throw fail('bad label separator');
      }
      rest = rest.slice(1);
    }
    const m = /^ (\S+)(?: -?\d+)?$/.exec(rest);
    if (m === null) throw fail('bad value');
    const raw = m[1]!;
    const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw);
    if (Number.isNaN(value) && raw !== 'NaN') throw fail('bad number');
    samples.push({ name, labels, value });
  }
  return { types, samples };
}

/** Samples of `name` whose labels include every one of `labels`. */
export function samplesOf(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): Sample[] {
  return exposition.samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}

/** The one sample of `name` with exactly these labels (undefined: none; throws: several). */
export function valueOf(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const keys = Object.keys(labels).length;
  const found = samplesOf(exposition, name, labels).filter(
    (s) => Object.keys(s.labels).length === keys,
  );
  if (found.length > 1) throw new Error(`several samples of ${name}`);
  return found[0]?.value;
}

/** The sum of the samples of `name` whose labels include `labels`. */
export function sumOf(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): number {
  return samplesOf(exposition, name, labels).reduce((total, s) => total + s.value, 0);
}
