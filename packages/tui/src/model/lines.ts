/**
 * The unit every view-model produces: one terminal line, already fitted to the width, with a
 * tone the components map to a colour. Keeping views as plain lines makes them testable without
 * Ink and guarantees nothing wider than the terminal is ever rendered.
 */

export type Tone = 'plain' | 'dim' | 'bold' | 'ok' | 'error' | 'warn' | 'accent';

export interface Line {
  readonly text: string;
  readonly tone: Tone;
}

export const line = (text: string, tone: Tone = 'plain'): Line => ({ text, tone });

export const lines = (texts: readonly string[], tone: Tone = 'plain'): Line[] =>
  texts.map((t) => line(t, tone));
