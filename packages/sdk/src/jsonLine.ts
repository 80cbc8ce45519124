/**
 * Turning one received text line or frame into a JSON value, with an error that says what was
 * wrong without dumping a huge payload into logs.
 */

const PREVIEW_CHARS = 200;

/** Parse one line; `undefined` for blank lines; throws a descriptive `SyntaxError` otherwise. */
export function parseJsonLine(text: string, source: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const preview = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
    throw new SyntaxError(`${source} sent a line that is not JSON: ${JSON.stringify(preview)}`, {
      cause: error,
    });
  }
}
