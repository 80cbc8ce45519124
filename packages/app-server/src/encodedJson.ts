/**
 * A value already encoded as JSON text. A request handler may resolve with one: the connection
 * then writes the text as the response's `result` instead of encoding a value (the tool-call
 * path encodes each result once for both `item/completed` and the response, ADR 0022).
 */
export class EncodedJson {
  constructor(readonly text: string) {}
}
