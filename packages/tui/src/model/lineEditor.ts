/**
 * The prompt's line editing as pure state: insert at the cursor (typed or pasted text), delete
 * backwards, move the cursor, and walk the history of submitted lines with ↑/↓ (the line being
 * typed is kept as a draft). Positions count code points, so emoji are never split.
 */

export interface LineEditor {
  readonly chars: readonly string[];
  readonly cursor: number;
  readonly history: readonly string[];
  /** Index into `history` while browsing it; null when editing the draft. */
  readonly browsing: number | null;
  readonly draft: readonly string[];
}

export const emptyEditor: LineEditor = {
  chars: [],
  cursor: 0,
  history: [],
  browsing: null,
  draft: [],
};

export const editorText = (ed: LineEditor): string => ed.chars.join('');

export function insert(ed: LineEditor, input: string): LineEditor {
  // eslint-disable-next-line no-control-regex
  const add = [...input.replace(/\r?\n/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '')];
  if (add.length === 0) return ed;
  const chars = [...ed.chars.slice(0, ed.cursor), ...add, ...ed.chars.slice(ed.cursor)];
  return { ...ed, chars, cursor: ed.cursor + add.length, browsing: null };
}

export function deleteBack(ed: LineEditor): LineEditor {
  if (ed.cursor === 0) return ed;
  const chars = [...ed.chars.slice(0, ed.cursor - 1), ...ed.chars.slice(ed.cursor)];
  return { ...ed, chars, cursor: ed.cursor - 1 };
}

export function moveCursor(ed: LineEditor, to: 'left' | 'right' | 'home' | 'end'): LineEditor {
  const cursor =
    to === 'home'
      ? 0
      : to === 'end'
        ? ed.chars.length
        : Math.min(ed.chars.length, Math.max(0, ed.cursor + (to === 'left' ? -1 : 1)));
  return { ...ed, cursor };
}

/** ↑ (-1) or ↓ (+1) through earlier lines. */
export function browse(ed: LineEditor, delta: -1 | 1): LineEditor {
  if (ed.history.length === 0) return ed;
  const from = ed.browsing ?? ed.history.length;
  const to = Math.min(ed.history.length, Math.max(0, from + delta));
  if (to === from) return ed;
  const draft = ed.browsing === null ? ed.chars : ed.draft;
  const chars = to === ed.history.length ? draft : [...ed.history[to]!];
  return {
    ...ed,
    chars,
    cursor: chars.length,
    draft,
    browsing: to === ed.history.length ? null : to,
  };
}

/** Enter: the line to run, and an empty editor that remembers it. */
export function commit(ed: LineEditor): { editor: LineEditor; line: string } {
  const line = editorText(ed);
  const history =
    line.trim() === '' || ed.history[ed.history.length - 1] === line
      ? ed.history
      : [...ed.history, line].slice(-200);
  return { editor: { ...emptyEditor, history }, line };
}
