/**
 * Splitting typed input into edits. Ink splits a read from the terminal into keys only at escape
 * sequences, so text, Enter and Backspace that arrive together (a paste, fast typing, keys sent
 * by a test harness) come as one string such as `"abc\x7f9\r"` or `"\t\t"`. This turns such a
 * string into the edits a person made, in order.
 */

export type TypedEdit =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'backspace' }
  | { readonly kind: 'enter' }
  | { readonly kind: 'tab' };

export function splitTyped(input: string): TypedEdit[] {
  const edits: TypedEdit[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') edits.push({ kind: 'text', text });
    text = '';
  };
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c === '\r' || c === '\n') {
      flush();
      edits.push({ kind: 'enter' });
      if (c === '\r' && input[i + 1] === '\n') i++;
    } else if (c === '\u007f' || c === '\b') {
      flush();
      edits.push({ kind: 'backspace' });
    } else if (c === '\t') {
      flush();
      edits.push({ kind: 'tab' });
    } else {
      text += c;
    }
  }
  flush();
  return edits;
}

/** True when `input` is more than plain text: it carries Enter, Backspace or Tab inside. */
export const hasEmbeddedKeys = (input: string): boolean =>
  input.length > 1 && /[\r\n\u007f\b\t]/.test(input);
