/**
 * An elicitation form on screen: renders `formLines` (within `maxRows`: taller forms scroll with
 * the focus) and turns keys into form edits. Enter validates (messages appear under the fields
 * and follow later edits; the first invalid field takes the focus) and, when valid, accepts with
 * the content; Esc cancels; Ctrl+D declines. A schema the TUI cannot render can only be declined
 * or cancelled.
 */

import { useInput } from 'ink';
import { useRef, useState } from 'react';

import type { McpServerElicitationRequestResult } from '@mcprt/protocol';

import { formLines } from '../model/elicitationView.js';
import type { FormState } from '../model/form.js';
import { backspace, choose, createForm, moveFocus, submit, typeText } from '../model/form.js';
import { line } from '../model/lines.js';
import { hasEmbeddedKeys, splitTyped } from '../model/typed.js';
import { clampLines, truncate, wrap } from '../text/fit.js';
import { Lines } from './Lines.js';

export interface ElicitationFormProps {
  /** `server@env` of the asking registration. */
  readonly scope: string;
  readonly message: string;
  readonly requestedSchema: unknown;
  readonly width: number;
  /** Rows it may take (the terminal's, less what is above it); taller forms scroll. */
  readonly maxRows?: number;
  readonly onAnswer: (result: McpServerElicitationRequestResult) => void;
}

export function ElicitationForm({
  scope,
  message,
  requestedSchema,
  width,
  maxRows,
  onAnswer,
}: ElicitationFormProps) {
  const initial = useRef<FormState | { error: string }>(createForm(requestedSchema));
  const current = useRef(initial.current);
  const [form, setState] = useState(initial.current);
  const setForm = (next: FormState) => {
    current.current = next;
    setState(next);
  };
  useInput((input, key) => {
    const state = current.current;
    if (key.escape) return onAnswer({ action: 'cancel', content: null });
    if ((key.ctrl && input === 'd') || ('error' in state && input === 'n'))
      return onAnswer({ action: 'decline', content: null });
    if ('error' in state) return;
    if (!key.ctrl && !key.meta && hasEmbeddedKeys(input)) {
      // Text, Backspace and Enter that arrived in one chunk: apply them in order.
      let next = state;
      for (const edit of splitTyped(input)) {
        if (edit.kind === 'text') next = typeText(next, edit.text);
        else if (edit.kind === 'backspace') next = backspace(next);
        else if (edit.kind === 'tab') next = moveFocus(next, 1);
        else {
          const { state: checked, content } = submit(next);
          if (content !== null) return onAnswer({ action: 'accept', content });
          next = checked;
        }
      }
      setForm(next);
    } else if (key.return) {
      const { state: next, content } = submit(state);
      if (content !== null) onAnswer({ action: 'accept', content });
      else setForm(next);
    } else if (key.upArrow || (key.tab && key.shift)) setForm(moveFocus(state, -1));
    else if (key.downArrow || key.tab) setForm(moveFocus(state, 1));
    else if (key.leftArrow) setForm(choose(state, -1));
    else if (key.rightArrow) setForm(choose(state, 1));
    else if (key.backspace || key.delete) setForm(backspace(state));
    else if (input !== '' && !key.ctrl && !key.meta) setForm(typeText(state, input));
  });
  if ('error' in form) {
    // In at most `maxRows` lines: the title and the keys, the rest shared by the message and why.
    const rows = maxRows ?? Number.POSITIVE_INFINITY;
    const problem = wrap(`This form cannot be shown: ${form.error}.`, width, '  ', '  ');
    const why = clampLines(problem, Math.max(1, Math.min(problem.length, rows - 3)), width);
    const text = clampLines(
      wrap(message, width, '  ', '  ', rows),
      Math.max(1, rows - 2 - why.length),
      width,
    );
    return (
      <Lines
        lines={[
          line(truncate(`${scope} asks for input`, width), 'bold'),
          ...text.map((t) => line(t)),
          ...why.map((t) => line(t, 'error')),
          line(truncate('n decline · Esc cancel', width), 'dim'),
        ]}
      />
    );
  }
  return <Lines lines={formLines({ scope, message }, form, width, maxRows)} />;
}
