/**
 * One compiled validator per distinct JSON Schema, shared by every caller, with a bound.
 *
 * Why: AJV (behind the MCP SDK's JSON Schema validator) keeps every schema it compiles, keyed by
 * the schema *object*. A server's elicitation schema or a tool's outputSchema arrives as a new
 * object on each request or list, so compiling it each time grows the heap for as long as the
 * process lives (the soak found ~10 MB a minute under elicitations). Here a schema is looked up by
 * its JSON text first; only a text not seen before reaches the engine. When `limit` distinct texts
 * have been compiled the whole engine is dropped and a fresh one made (`make`): memory stays
 * bounded whatever a server sends, and the common case — the same few schemas — compiles once.
 *
 * A schema naming an `$id` anywhere gets an engine of its own: an engine answers a known `$id`
 * with what it compiled first, so in a shared engine one server's schema could stand in for
 * another's. At most `isolatedLimit` such engines live at once (then everything starts afresh).
 */

export interface SchemaValidatorProvider<V> {
  getValidator(schema: never): V;
}

export class SchemaValidatorCache<V> {
  private engine: SchemaValidatorProvider<V> | undefined;
  private readonly byText = new Map<string, V>();
  private isolated = 0;

  constructor(
    private readonly make: () => SchemaValidatorProvider<V>,
    private readonly limit = 256,
    private readonly isolatedLimit = 16,
  ) {}

  /** Distinct schema texts cached since the last reset (for tests and diagnostics). */
  get size(): number {
    return this.byText.size;
  }

  /**
   * The validator for `schema`: the cached one when a schema with the same JSON text was seen,
   * else compiled now (a schema that does not compile throws, and nothing is cached).
   */
  get(schema: object): V {
    const text = JSON.stringify(schema);
    const known = this.byText.get(text);
    if (known !== undefined) return known;
    const ownEngine = text.includes('"$id"');
    if (this.byText.size >= this.limit || (ownEngine && this.isolated >= this.isolatedLimit)) {
      this.byText.clear();
      this.engine = undefined;
      this.isolated = 0;
    }
    const engine = ownEngine ? this.make() : (this.engine ??= this.make());
    const validator = engine.getValidator(schema as never);
    if (ownEngine) this.isolated += 1;
    this.byText.set(text, validator);
    return validator;
  }
}
