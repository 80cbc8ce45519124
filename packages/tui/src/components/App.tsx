/**
 * The whole TUI: the transcript (settled cells printed once through `<Static>`, live ones
 * redrawn), then either the pending elicitation or the prompt (whose hint says when a login
 * waits for a pasted redirect URL). State comes from the
 * `TuiController` store; the width from the terminal (or the `columns` prop in tests).
 */

import { Box, Static, useApp, useInput, useStdout } from 'ink';
import { useEffect, useState, useSyncExternalStore } from 'react';

import type { TuiController } from '../controller/controller.js';
import type { CellContext } from '../model/cells.js';
import { cellLines, settledPrefix } from '../model/cells.js';
import { pasteHint } from '../model/loginView.js';
import { ElicitationForm } from './ElicitationForm.js';
import { Lines } from './Lines.js';
import { Prompt } from './Prompt.js';
import { UrlConsent } from './UrlConsent.js';

export const MIN_WIDTH = 20;

function useWidth(fixed: number | undefined): number {
  const { stdout } = useStdout();
  const [columns, setColumns] = useState(stdout.columns || 80);
  useEffect(() => {
    if (fixed !== undefined) return;
    const onResize = () => setColumns(stdout.columns || 80);
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fixed]);
  // One column is left free: some terminals wrap when the last column is written.
  return Math.max(MIN_WIDTH, (fixed ?? columns) - 1);
}

export interface AppProps {
  readonly controller: TuiController;
  /** Terminal width override (tests); default: the terminal's, following resizes. */
  readonly columns?: number;
}

export function App({ controller, columns }: AppProps) {
  const state = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  const width = useWidth(columns);
  const { exit } = useApp();
  useEffect(() => {
    if (state.quitRequested) exit();
  }, [state.quitRequested, exit]);
  useInput((input, key) => {
    if (key.ctrl && input === 'c') exit();
  });
  const ctx: CellContext = {
    width,
    environmentOrder: state.environmentOrder,
    environments: state.environments,
    registrations: state.registrations,
  };
  const settled = settledPrefix(state.cells);
  const elicitation = state.elicitations[0];
  return (
    <Box flexDirection="column">
      <Static items={state.cells.slice(0, settled)}>
        {(cell) => <Lines key={cell.id} lines={cellLines(cell, ctx)} />}
      </Static>
      {state.cells.slice(settled).map((cell) => (
        <Lines key={cell.id} lines={cellLines(cell, ctx)} />
      ))}
      {elicitation === undefined ? (
        <Prompt
          width={width}
          onSubmit={(line) => controller.submit(line)}
          onExit={exit}
          hint={
            state.disconnected
              ? 'disconnected: /quit to leave'
              : pasteHint(state.cells.flatMap((c) => (c.kind === 'login' ? [c.login] : [])))
          }
        />
      ) : elicitation.params.mode === 'url' ? (
        <UrlConsent
          key={elicitation.id}
          scope={elicitation.scope}
          message={elicitation.params.message}
          url={elicitation.params.url}
          width={width}
          onAnswer={(result) => controller.answerElicitation(elicitation.id, result)}
        />
      ) : (
        <ElicitationForm
          key={elicitation.id}
          scope={elicitation.scope}
          message={elicitation.params.message}
          requestedSchema={elicitation.params.requestedSchema}
          width={width}
          onAnswer={(result) => controller.answerElicitation(elicitation.id, result)}
        />
      )}
    </Box>
  );
}
