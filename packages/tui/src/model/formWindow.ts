/**
 * Fitting a form into the rows the terminal has: when header, fields and keys do not all fit, the
 * fields scroll with the focus — the focused field (its label, the value being edited and its
 * validation message) is always on screen, with as many neighbours as fit, and the hidden ones
 * are counted (`↑ 4 more fields`, `↓ 9 more fields, 2 invalid`). A field taller than the screen
 * itself (a long option list) shows the options around its cursor. Pure: lines in, lines out.
 */

import { clampLines, truncate } from '../text/fit.js';
import type { Line } from './lines.js';
import { line } from './lines.js';

/** One field's lines, in order: label, value (one line of it active), description, error. */
export interface FieldBlock {
  readonly label: readonly Line[];
  readonly value: readonly Line[];
  /** Index in `value` of the line the user is on (the cursor, the chosen option). */
  readonly active: number;
  readonly description: readonly Line[];
  readonly error: readonly Line[];
}

const allLines = (b: FieldBlock): Line[] => [...b.label, ...b.value, ...b.description, ...b.error];
const height = (b: FieldBlock): number => allLines(b).length;

/** The focused block in at most `max` rows: description dropped first, then options windowed. */
function fitFocused(block: FieldBlock, max: number, width: number): Line[] {
  if (height(block) <= max) return allLines(block);
  const withoutDescription = [...block.label, ...block.value, ...block.error];
  if (withoutDescription.length <= max) return withoutDescription;
  const label = block.label.slice(0, Math.max(1, max - 2));
  const error = block.error.slice(0, Math.max(1, max - label.length - 1));
  const room = Math.max(1, max - label.length - error.length);
  const value = block.value;
  const active = Math.min(Math.max(0, block.active), value.length - 1);
  let shown: Line[];
  if (room >= value.length) shown = [...value];
  else if (room < 3) shown = value.slice(active, active + 1);
  else {
    // A window around the active line, with a counter for what is cut on either side.
    const inner = room - 2;
    const start = Math.min(Math.max(0, active - Math.floor(inner / 2)), value.length - inner);
    const end = start + inner;
    shown = [
      ...(start > 0 ? [line(truncate(`      ↑ ${start} more`, width), 'dim')] : []),
      ...value.slice(start, end),
      ...(end < value.length
        ? [line(truncate(`      ↓ ${value.length - end} more`, width), 'dim')]
        : []),
    ];
  }
  return [...label, ...shown, ...error].slice(0, max);
}

function countLine(arrow: '↑' | '↓', blocks: readonly FieldBlock[], width: number): Line {
  const n = blocks.length;
  const invalid = blocks.filter((b) => b.error.length > 0).length;
  const text = `  ${arrow} ${n} more field${n === 1 ? '' : 's'}${invalid > 0 ? `, ${invalid} invalid` : ''}`;
  return line(truncate(text, width), invalid > 0 ? 'error' : 'dim');
}

/**
 * `header`, the field blocks and `footer` in at most `maxRows` lines (all of them when they fit).
 * The header is cut to its first line plus up to two of the message when space is short; the
 * footer (the keys) is kept.
 */
export function fitForm(
  header: readonly Line[],
  blocks: readonly FieldBlock[],
  focus: number,
  footer: readonly Line[],
  maxRows: number,
  width: number,
): Line[] {
  const total = header.length + blocks.reduce((n, b) => n + height(b), 0) + footer.length;
  if (total <= maxRows) return [...header, ...blocks.flatMap(allLines), ...footer];
  if (blocks.length === 0) {
    // No fields: the message may take every row the title and the keys leave.
    const message = clampLines(
      header.slice(1).map((l) => l.text),
      Math.max(1, maxRows - 1 - footer.length),
      width,
    ).map((t) => line(t));
    return [...header.slice(0, 1), ...message, ...footer];
  }
  const top =
    header.length > 3
      ? [
          header[0]!,
          ...clampLines(
            header.slice(1).map((l) => l.text),
            2,
            width,
          ).map((t) => line(t)),
        ]
      : [...header];
  // Room for fields, with one line for each of the two counters.
  const room = Math.max(1, maxRows - top.length - footer.length - 2);
  const f = Math.min(Math.max(0, focus), blocks.length - 1);
  const focused = fitFocused(blocks[f]!, room, width);
  let used = focused.length;
  let first = f;
  let last = f;
  const fits = (b: FieldBlock) => used + height(b) <= room;
  // One field of context above, then fields below the focus, then the rest above.
  if (first > 0 && fits(blocks[first - 1]!)) used += height(blocks[--first]!);
  while (last + 1 < blocks.length && fits(blocks[last + 1]!)) used += height(blocks[++last]!);
  while (first > 0 && fits(blocks[first - 1]!)) used += height(blocks[--first]!);
  const out: Line[] = [...top];
  if (first > 0) out.push(countLine('↑', blocks.slice(0, first), width));
  for (let i = first; i <= last; i += 1) out.push(...(i === f ? focused : allLines(blocks[i]!)));
  if (last + 1 < blocks.length) out.push(countLine('↓', blocks.slice(last + 1), width));
  out.push(...footer);
  return out;
}
