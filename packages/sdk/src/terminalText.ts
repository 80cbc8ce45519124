/**
 * Text a server controls — its stderr, error messages, tool results, names — reaches people
 * through terminals (the TUI, the CLI). Printed as is, it can drive the terminal: write the
 * clipboard (OSC 52), change the window title, move the cursor and clear the screen (CSI), hide
 * text. Every client that prints such text passes it through {@link sanitizeTerminalText}: escape
 * sequences (CSI, OSC, DCS/SOS/PM/APC strings, two-character escapes, in their 7-bit and 8-bit C1
 * forms) are removed whole, and any other control character is shown as `?`. Exported by the SDK
 * so the TUI and the CLI share one implementation.
 */

export interface SanitizeOptions {
  /** Keep line breaks (`\n`; `\r\n` becomes `\n`). Default: a break is a control like any other. */
  readonly newlines?: boolean;
  /** What a tab becomes (default: kept as a tab). */
  readonly tab?: string;
}

// ESC or its C1 equivalent, then: OSC/DCS/SOS/PM/APC strings up to their terminator (BEL, ST,
// or the end of the text), CSI sequences, or any other escape (intermediates + final byte).
const ESCAPE_SEQUENCE =
  // eslint-disable-next-line no-control-regex
  /(?:\u001b[\]PX^_]|[\u009d\u0090\u0098\u009e\u009f])[\s\S]*?(?:\u0007|\u001b\\|\u009c|$)|(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_KEEPING_NEWLINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` safe to write to a terminal (see the module comment). */
export function sanitizeTerminalText(text: string, options: SanitizeOptions = {}): string {
  let out = text.replace(ESCAPE_SEQUENCE, '');
  if (options.tab !== undefined) out = out.replaceAll('\t', options.tab);
  if (options.newlines === true) {
    return out.replace(/\r\n/g, '\n').replace(CONTROL_KEEPING_NEWLINES, '?');
  }
  return out.replace(CONTROL, '?');
}
