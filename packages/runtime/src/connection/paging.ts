/**
 * Walking a paginated MCP list (`tools/list`, `resources/list`, `resources/templates/list`) one
 * page at a time, refusing a server whose cursors repeat (Codex's texts: `resources/list
 * returned duplicate cursor`), so a buggy server cannot keep the client looping.
 */

export const MAX_PAGES = 1000;

export class DuplicateCursorError extends Error {}

export async function collectPages<T>(
  method: string,
  fetchPage: (
    cursor: string | undefined,
  ) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    const next = result.nextCursor;
    if (next === undefined || next === null || next === '') return items;
    if (seen.has(next)) throw new DuplicateCursorError(`${method} returned duplicate cursor`);
    seen.add(next);
    cursor = next;
  }
  throw new DuplicateCursorError(`${method} did not finish after ${MAX_PAGES} pages`);
}
