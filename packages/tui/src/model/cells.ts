/**
 * The transcript: an ordered list of cells (command echo, notes, `/mcp` views, calls, logins,
 * history, elicitation outcomes) and how each becomes lines. A cell is `done` once it will not
 * change again; done cells are printed once above the live area and scroll away like output.
 */

import type { ThreadToolViewGetResult } from '@mcprt/protocol';

import type { CallCell } from './callCell.js';
import { callCellLines } from './callCell.js';
import type { HistoryCell } from './historyView.js';
import { historyCellLines } from './historyView.js';
import { wrap } from '../text/fit.js';
import type { Line, Tone } from './lines.js';
import { line } from './lines.js';
import type { LoginCell } from './loginView.js';
import { loginCellLines } from './loginView.js';
import type { McpViewContext } from './mcpView.js';
import { compactView, verboseView } from './mcpView.js';
import type { Registration } from './registrations.js';

export type CellBody =
  | { readonly kind: 'text'; readonly items: readonly TextItem[] }
  | {
      readonly kind: 'mcp';
      readonly verbose: boolean;
      /** The registrations when the cell settled; null while it follows live status. */
      readonly snapshot: readonly Registration[] | null;
      /** What the thread's tools cost when the cell settled (null: not known). */
      readonly toolView?: ThreadToolViewGetResult | null;
    }
  | { readonly kind: 'call'; readonly call: CallCell }
  | { readonly kind: 'login'; readonly login: LoginCell }
  | { readonly kind: 'history'; readonly history: HistoryCell };

/** A paragraph of a text cell, wrapped at render time under its prefixes. */
export interface TextItem {
  readonly text: string;
  readonly tone: Tone;
  readonly prefix?: string;
  readonly restPrefix?: string;
}

export type Cell = CellBody & { readonly id: number; readonly done: boolean };

export interface CellContext extends McpViewContext {
  /** The live registrations, for `/mcp` cells that have not settled. */
  readonly registrations: readonly Registration[];
}

export function cellLines(cell: Cell, ctx: CellContext): Line[] {
  switch (cell.kind) {
    case 'text':
      return cell.items.flatMap((item) =>
        wrap(item.text, ctx.width, item.prefix ?? '', item.restPrefix ?? item.prefix ?? '').map(
          (t) => line(t, item.tone),
        ),
      );
    case 'mcp': {
      const regs = cell.snapshot ?? ctx.registrations;
      const view = cell.snapshot === null ? ctx : { ...ctx, toolView: cell.toolView ?? null };
      return cell.verbose ? verboseView(regs, view) : compactView(regs, view);
    }
    case 'call':
      return callCellLines(cell.call, ctx.width);
    case 'login':
      return loginCellLines(cell.login, ctx.width);
    case 'history':
      return historyCellLines(cell.history, ctx.width);
  }
}

/** Cells printed for good: the longest prefix of done cells (so the order never changes). */
export function settledPrefix(cells: readonly Cell[]): number {
  const i = cells.findIndex((c) => !c.done);
  return i < 0 ? cells.length : i;
}
