// Counts the lines of a file (the fixtures' pid logs: one line per server launch).
import { readFileSync } from 'node:fs';

export function countLines(file) {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '').length;
  } catch {
    return 0;
  }
}
