/**
 * `@mcprt/tui`: the terminal UI, a client of the app-server through `@mcprt/sdk`. `runTui` runs
 * it on a terminal; `App` and `TuiController` let a host embed it in its own Ink tree. The
 * view-models behind it are internal (tested beside them); the `/mcp` view model other front ends
 * share is the `@mcprt/tui/mcpStatus` entry.
 */

export { runTui } from './run.js';
export type { RunTuiOptions } from './run.js';
export { App } from './components/App.js';
export type { AppProps } from './components/App.js';
export { TuiController } from './controller/controller.js';
export type {
  PendingElicitation,
  TuiControllerOptions,
  TuiState,
} from './controller/controller.js';
export type { AppHost } from './controller/apps.js';
export type { Cell } from './model/cells.js';
export type { EnvironmentSummary } from './model/mcpView.js';
export type { Registration } from './model/registrations.js';
