/**
 * The whole TUI: the transcript (settled cells printed once through `<Static>`, live ones
 * redrawn), then either the pending elicitation or the prompt (whose hint says when a login
 * waits for a pasted redirect URL). Everything redrawn fits the terminal's height
 * (model/viewport.ts): a form scrolls with its focus, changing cells show their latest lines.
 * State comes from the `TuiController` store; the size from the terminal (or the `columns` and
 * `rows` props in tests).
 */

import { Box, Static, useApp, useInput, useStdout } from 'ink';
import { useEffect, useState, useSyncExternalStore } from 'react';

import type { TuiController } from '../controller/controller.js';
import type { CellContext } from '../model/cells.js';
import { cellLines, settledPrefix } from '../model/cells.js';
import { pasteHint } from '../model/loginView.js';
import { latestLines, viewport } from '../model/viewport.js';
import { ElicitationForm } from './ElicitationForm.js';
import { Lines } from './Lines.js';
import { Prompt } from './Prompt.js';
import { UrlConsent } from './UrlConsent.js';

export const MIN_WIDTH = 20;

/** Width (one column left free) and rows (undefined: unknown) of the terminal. */
function useSize(
  fixedColumns: number | undefined,
  fixedRows: number | undefined,
): { width: number; rows: number | undefined } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || 80, rows: stdout.rows || undefined });
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (fixedColumns !== undefined && fixedRows !== undefined) return;
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fixedColumns, fixedRows]);
  // One column is left free: some terminals wrap when the last column is written.
  const width = Math.max(MIN_WIDTH, (fixedColumns ?? size.columns) - 1);
  return { width, rows: fixedRows ?? size.rows };
}

export interface AppProps {
  readonly controller: TuiController;
  /** Terminal width override (tests); default: the terminal's, following resizes. */
  readonly columns?: number;
  /** Terminal height override (tests); default: the terminal's, following resizes. */
  readonly rows?: number;
}

export function App({ controller, columns, rows }: AppProps) {
  const state = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  const size = useSize(columns, rows);
  const width = size.width;
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
    toolView: state.toolView,
  };
  const settled = settledPrefix(state.cells);
  const elicitation = state.elicitations[0];
  const live = state.cells.slice(settled).flatMap((cell) => cellLines(cell, ctx));
  const room = viewport(size.rows, live.length, elicitation !== undefined);
  return (
    <Box flexDirection="column">
      <Static items={state.cells.slice(0, settled)}>
        {(cell) => <Lines key={cell.id} lines={cellLines(cell, ctx)} />}
      </Static>
      <Lines lines={latestLines(live, room.live, width)} />
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
          maxRows={room.prompt}
          onAnswer={(result) => controller.answerElicitation(elicitation.id, result)}
        />
      ) : (
        <ElicitationForm
          key={elicitation.id}
          scope={elicitation.scope}
          message={elicitation.params.message}
          requestedSchema={elicitation.params.requestedSchema}
          width={width}
          maxRows={room.prompt}
          onAnswer={(result) => controller.answerElicitation(elicitation.id, result)}
        />
      )}
    </Box>
  );
}
