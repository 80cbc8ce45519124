import { describe, expect, it } from 'vitest';

import { SchemaValidatorCache } from './schemaValidatorCache.js';

// The engine is a seam of ours: a minimal one that checks `required` and counts what it compiled.
class CountingEngine {
  compiled = 0;
  getValidator(schema: { required?: string[] }) {
    this.compiled += 1;
    if (!Array.isArray(schema.required)) throw new Error('schema has no required list');
    return (input: Record<string, unknown>) => schema.required!.every((k) => k in input);
  }
}

/** A factory of counting engines and the engines it made, in order. */
function countingEngines() {
  const engines: CountingEngine[] = [];
  const make = () => {
    const engine = new CountingEngine();
    engines.push(engine);
    return engine;
  };
  return { engines, make };
}

describe('SchemaValidatorCache', () => {
  it('compiles equal schemas once, whatever object they arrive in', () => {
    const { engines, make } = countingEngines();
    const cache = new SchemaValidatorCache(make);
    const first = cache.get({ required: ['a'] });
    for (let i = 0; i < 1000; i++) expect(cache.get({ required: ['a'] })).toBe(first);
    expect(engines).toHaveLength(1);
    expect(engines[0]!.compiled).toBe(1);
    expect(cache.size).toBe(1);
    expect(first({ a: 1 })).toBe(true);
    expect(first({ b: 1 })).toBe(false);
  });

  it('stays bounded: past the limit the engine is dropped and a fresh one compiles', () => {
    const { engines, make } = countingEngines();
    const cache = new SchemaValidatorCache(make, 3);
    const old = cache.get({ required: ['k0'] });
    for (let i = 1; i < 10; i++) cache.get({ required: [`k${i}`] });
    expect(cache.size).toBeLessThanOrEqual(3);
    expect(engines.length).toBe(4); // 10 schemas, 3 per engine
    // A validator handed out before the reset still works.
    expect(old({ k0: true })).toBe(true);
    expect(old({})).toBe(false);
  });

  it('gives a schema with an $id an engine of its own, and bounds those engines too', () => {
    const { engines, make } = countingEngines();
    const cache = new SchemaValidatorCache(make, 256, 2);
    cache.get({ required: ['plain'] });
    cache.get({ $id: 'urn:a', required: ['a'] } as object);
    cache.get({ $id: 'urn:a', required: ['b'] } as object);
    expect(engines.map((e) => e.compiled)).toEqual([1, 1, 1]);
    expect(cache.size).toBe(3);
    cache.get({ $id: 'urn:c', required: ['c'] } as object); // a third isolated engine: start afresh
    expect(cache.size).toBe(1);
  });

  it('caches nothing for a schema that does not compile: it throws each time', () => {
    const cache = new SchemaValidatorCache(() => new CountingEngine());
    expect(() => cache.get({ nope: true })).toThrow('schema has no required list');
    expect(() => cache.get({ nope: true })).toThrow('schema has no required list');
    expect(cache.size).toBe(0);
  });
});
