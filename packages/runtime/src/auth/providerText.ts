/**
 * Words an authorization server chose (`error`, `error_description`, and whatever it put in a
 * token or registration error) end up in our error messages, which the CLI, the TUI and
 * app-server clients print. A hostile server could forge lines of its own (`\nmcprt: logged
 * in`) or flood the terminal, so such text is made one line and clipped here, where it enters
 * a message. Escapes and bidi controls are left to the printers' sanitiser (the SDK's
 * `sanitizeTerminalText`), which every one of them applies.
 */

/** At most this many characters of one provider-chosen text. */
export const PROVIDER_TEXT_MAX = 300;

// Line and paragraph breaks of every kind, and tabs: a forged line needs one of them.
const BREAKS = /[\r\n\t\v\f\u0085\u2028\u2029]+/g;

/** `text` on one line, at most `max` characters (code points), `…` where it was cut. */
export function providerText(text: string, max = PROVIDER_TEXT_MAX): string {
  const line = text.replace(BREAKS, ' ');
  const chars = Array.from(line);
  return chars.length <= max ? line : `${chars.slice(0, max - 1).join('')}…`;
}
