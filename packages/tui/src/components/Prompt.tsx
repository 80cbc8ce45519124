/**
 * The command line at the bottom: `› ` and the text being typed, with a visible cursor, history
 * on ↑/↓, Enter to run, Ctrl+D on an empty line to leave.
 */

import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';

import type { LineEditor } from '../model/lineEditor.js';
import { hasEmbeddedKeys, splitTyped } from '../model/typed.js';
import {
  browse,
  commit,
  deleteBack,
  emptyEditor,
  insert,
  moveCursor,
} from '../model/lineEditor.js';

export interface PromptProps {
  readonly width: number;
  readonly onSubmit: (line: string) => void;
  readonly onExit: () => void;
  readonly hint?: string | undefined;
}

export function Prompt({ width, onSubmit, onExit, hint }: PromptProps) {
  // Several keys can arrive before React renders again: the ref always holds the latest state.
  const current = useRef<LineEditor>(emptyEditor);
  const [editor, setState] = useState<LineEditor>(emptyEditor);
  const setEditor = (next: LineEditor) => {
    current.current = next;
    setState(next);
  };
  useInput((input, key) => {
    const ed = current.current;
    if (!key.ctrl && !key.meta && hasEmbeddedKeys(input)) {
      // Keys that arrived in one chunk ("/mcp\r", a paste): each line break runs a line.
      let next = ed;
      for (const edit of splitTyped(input)) {
        if (edit.kind === 'text') next = insert(next, edit.text);
        else if (edit.kind === 'backspace') next = deleteBack(next);
        else if (edit.kind === 'tab') continue;
        else {
          const done = commit(next);
          next = done.editor;
          onSubmit(done.line);
        }
      }
      setEditor(next);
    } else if (key.return) {
      const { editor: next, line } = commit(ed);
      setEditor(next);
      onSubmit(line);
    } else if (key.ctrl && input === 'd') {
      if (ed.chars.length === 0) onExit();
    } else if (key.ctrl && input === 'u') {
      setEditor({ ...emptyEditor, history: ed.history });
    } else if (key.backspace || key.delete) {
      setEditor(deleteBack(ed));
    } else if (key.leftArrow) {
      setEditor(moveCursor(ed, 'left'));
    } else if (key.rightArrow) {
      setEditor(moveCursor(ed, 'right'));
    } else if (key.home || (key.ctrl && input === 'a')) {
      setEditor(moveCursor(ed, 'home'));
    } else if (key.end || (key.ctrl && input === 'e')) {
      setEditor(moveCursor(ed, 'end'));
    } else if (key.upArrow) {
      setEditor(browse(ed, -1));
    } else if (key.downArrow) {
      setEditor(browse(ed, 1));
    } else if (input !== '' && !key.ctrl && !key.meta && !key.escape && !key.tab) {
      setEditor(insert(ed, input));
    }
  });
  const before = editor.chars.slice(0, editor.cursor).join('');
  const at = editor.chars[editor.cursor] ?? ' ';
  const after = editor.chars.slice(editor.cursor + 1).join('');
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="wrap">
        <Text color="cyan">{'› '}</Text>
        {before}
        <Text inverse>{at}</Text>
        {after}
      </Text>
      {hint !== undefined && editor.chars.length === 0 ? (
        <Text dimColor wrap="truncate-end">
          {hint}
        </Text>
      ) : null}
    </Box>
  );
}
