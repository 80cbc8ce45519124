/**
 * Text a server controls — its stderr, error messages, tool results, names — reaches people
 * through terminals (the TUI, the CLI). Printed as is, it can drive the terminal: write the
 * clipboard (OSC 52), change the window title, move the cursor and clear the screen (CSI), hide
 * text. Every client that prints such text passes it through {@link sanitizeTerminalText}: escape
 * sequences (CSI, OSC, DCS/SOS/PM/APC strings, two-character escapes, in their 7-bit and 8-bit C1
 * forms) are removed whole, and any other control character is shown as `?`. Exported by the SDK
 * so the TUI and the CLI share one implementation.
 *
 * Invisible format characters are shown as `?` too (issue #33, finding 5), because they let text
 * look like other text: the bidi controls (U+061C, U+200E/U+200F, U+202A–U+202E, U+2066–U+2069)
 * reorder what is displayed (`evil\u202Egnp.exe` shows as `evilexe.png`), and the invisible ones
 * (U+00AD, U+180E, U+200B, U+2060–U+2064, U+206A–U+206F, U+FEFF, U+FFF9–U+FFFB, and the line and
 * paragraph separators U+2028/U+2029) make two different names look the same. This is an
 * explicit list rather than all of `\p{Cf}`, whose other members (Arabic and Syriac number signs,
 * Egyptian and musical format controls…) are visible or harmless. Three `Cf` characters are kept
 * where legitimate text needs them, and only there: the zero-width joiner U+200D between two
 * emoji (👨‍👩‍👧), the zero-width non-joiner U+200C between two non-ASCII letters (Persian, Indic
 * scripts), and tag characters U+E0020–U+E007F in an emoji tag sequence (🏴 + tags + U+E007F, the
 * flags of England, Scotland, Wales); anywhere else they too are shown as `?`.
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

// Bidi controls and invisible format characters, always shown as `?`.
const FORMAT =
  /[\u00ad\u061c\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

// The joiners and tag characters are kept where legitimate text uses them (the first three
// alternatives, matched and kept as they are) and shown as `?` anywhere else (the last one,
// captured).
const CONTEXTUAL_FORMAT =
  /\p{Extended_Pictographic}(?:\u{fe0f}|\p{Emoji_Modifier})?\u200d(?=\p{Extended_Pictographic})|(?<=[\p{L}\p{M}])(?<!\p{ASCII})\u200c(?=[\p{L}\p{M}])(?!\p{ASCII})|\u{1f3f4}[\u{e0020}-\u{e007e}]+\u{e007f}|(\u200c|\u200d|[\u{e0001}\u{e0020}-\u{e007f}])/gu;

function neutraliseFormat(text: string): string {
  return text
    .replace(FORMAT, '?')
    .replace(CONTEXTUAL_FORMAT, (match, lone?: string) => (lone === undefined ? match : '?'));
}

/** `text` safe to write to a terminal (see the module comment). */
export function sanitizeTerminalText(text: string, options: SanitizeOptions = {}): string {
  let out = neutraliseFormat(text.replace(ESCAPE_SEQUENCE, ''));
  if (options.tab !== undefined) out = out.replaceAll('\t', options.tab);
  if (options.newlines === true) {
    return out.replace(/\r\n/g, '\n').replace(CONTROL_KEEPING_NEWLINES, '?');
  }
  return out.replace(CONTROL, '?');
}
