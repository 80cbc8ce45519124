import { mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { realPathIfAny } from './realPath.js';

describe('realPathIfAny', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcprt-realpath-')));
  const file = join(dir, 'config.toml');
  writeFileSync(file, '');

  it('resolves a symlinked directory to the file it leads to', () => {
    const link = join(dir, 'link');
    symlinkSync(dir, link);
    expect(realPathIfAny(join(link, 'config.toml'))).toBe(file);
  });

  it('is null for a missing file and for a dangling link', () => {
    expect(realPathIfAny(join(dir, 'missing.toml'))).toBeNull();
    const dangling = join(dir, 'dangling');
    symlinkSync(join(dir, 'gone'), dangling);
    expect(realPathIfAny(dangling)).toBeNull();
  });
});
