import { existsSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { acquireFileLock, FileLockTimeoutError, withFileLock } from './fileLock.js';

const lockPath = () => join(mkdtempSync(join(tmpdir(), 'mcprt-lock-')), 'f.lock');

describe('file lock', () => {
  it('serializes critical sections and removes the lock file afterwards', async () => {
    const lock = lockPath();
    const order: string[] = [];
    const section = (name: string) =>
      withFileLock(lock, async () => {
        order.push(`${name}:in`);
        await new Promise((r) => setTimeout(r, 20));
        order.push(`${name}:out`);
        return name;
      });
    await expect(Promise.all([section('a'), section('b')])).resolves.toEqual(['a', 'b']);
    // Either may take the lock first (both try at once); the sections never overlap.
    const first = order[0]?.slice(0, 1);
    const second = first === 'a' ? 'b' : 'a';
    expect(order).toEqual([`${first}:in`, `${first}:out`, `${second}:in`, `${second}:out`]);
    expect(existsSync(lock)).toBe(false);
  });

  it('keeps the event loop running while it waits', async () => {
    const lock = lockPath();
    const release = await acquireFileLock(lock);
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 5);
    const waiting = acquireFileLock(lock, { waitMs: 1_000 });
    await new Promise((r) => setTimeout(r, 100));
    expect(ticks).toBeGreaterThan(3);
    await release();
    const second = await waiting;
    clearInterval(timer);
    await second();
    expect(existsSync(lock)).toBe(false);
  });

  it('gives up after waitMs with FileLockTimeoutError naming the lock file', async () => {
    const lock = lockPath();
    const release = await acquireFileLock(lock);
    const error = await acquireFileLock(lock, { waitMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileLockTimeoutError);
    expect((error as Error).message).toBe(`${lock} is held by another process`);
    await release();
  });

  it('takes over a lock file left behind longer than staleMs ago', async () => {
    const lock = lockPath();
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const release = await acquireFileLock(lock, { waitMs: 50 });
    expect(existsSync(lock)).toBe(true);
    await release();
    expect(existsSync(lock)).toBe(false);
  });

  it('passes on file system errors other than an existing lock', async () => {
    await expect(acquireFileLock(join(lockPath(), 'missing-dir', 'x.lock'))).rejects.toThrow(
      /ENOENT/,
    );
  });
});
