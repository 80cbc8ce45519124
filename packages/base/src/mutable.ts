/**
 * `Mutable<T>`: `T` without its `readonly` modifiers. Call paths build a request or record whose
 * public type is read-only field by field — written out, not spread (one object per call, ADR
 * 0023) — and hand it on as the read-only type once it is complete.
 */

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
