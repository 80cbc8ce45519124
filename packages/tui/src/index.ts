/**
 * `@mcprt/tui`: the terminal UI, a client of the app-server through `@mcprt/sdk`. `runTui` runs
 * it on a terminal; the view-models are pure functions (lines fitted to a width) that the Ink
 * components render, exported for tests and other front ends.
 */

export { runTui } from './run.js';
export type { RunTuiOptions } from './run.js';
export { App } from './components/App.js';
export type { AppProps } from './components/App.js';
export { ElicitationForm } from './components/ElicitationForm.js';
export type { ElicitationFormProps } from './components/ElicitationForm.js';
export { UrlConsent } from './components/UrlConsent.js';
export type { UrlConsentProps } from './components/UrlConsent.js';
export { Lines } from './components/Lines.js';
export { TuiController } from './controller/controller.js';
export type {
  PendingElicitation,
  TuiControllerOptions,
  TuiState,
} from './controller/controller.js';
export { MethodUnavailableError, OPTIONAL_METHODS } from './controller/optionalMethods.js';
export { callCellLines, formatDuration, resultText } from './model/callCell.js';
export type { CallCell } from './model/callCell.js';
export { cellLines, settledPrefix } from './model/cells.js';
export type { Cell, CellContext } from './model/cells.js';
export { parseCommand } from './model/commands.js';
export type { Command, HistoryFilters } from './model/commands.js';
export { formLines, urlConsentLines, urlDomain } from './model/elicitationView.js';
export { fitForm } from './model/formWindow.js';
export type { FieldBlock } from './model/formWindow.js';
export { FORM_CONTEXT_ROWS, latestLines, PROMPT_ROWS, viewport } from './model/viewport.js';
export type { Viewport } from './model/viewport.js';
export {
  backspace,
  buildFields,
  choose,
  createForm,
  moveFocus,
  submit,
  toggle,
  typeText,
  validateField,
} from './model/form.js';
export type { Field, FieldValue, FormState } from './model/form.js';
export { historyCellLines } from './model/historyView.js';
export type { HistoryCell } from './model/historyView.js';
export type { Line, Tone } from './model/lines.js';
export {
  loginCellLines,
  pasteHint,
  pasteInstructions,
  redactRedirectUrl,
} from './model/loginView.js';
export type { LoginCell } from './model/loginView.js';
export { compactView, registrationLine, verboseView } from './model/mcpView.js';
export type { EnvironmentSummary, McpViewContext } from './model/mcpView.js';
export {
  applyStartupUpdate,
  applyStatusList,
  legacyScope,
  statusLabel,
} from './model/registrations.js';
export type { Registration } from './model/registrations.js';
export type { StatusLabel } from './model/mcpStatus.js';
export { displayWidth, truncate, wrap } from './text/fit.js';
