// Types of fresh-clone.mjs for the tests that import it.
export function compare(
  listed: readonly string[],
  ran: readonly { id: string; status: string }[],
): string[];
