/** Seconds in config → milliseconds, with Rust's `Duration::try_from_secs_f64` error texts (Codex's). */

/** Rust's `Duration::try_from_secs_f64` outcome, in whole milliseconds. */
export function secondsToMs(seconds: number): { ms: number } | { problem: string } {
  if (Number.isNaN(seconds)) {
    return { problem: 'cannot convert float seconds to Duration: value is either too big or NaN' };
  }
  if (seconds < 0) {
    return { problem: 'cannot convert float seconds to Duration: value is negative' };
  }
  const ms = Math.round(seconds * 1000);
  if (!Number.isFinite(seconds) || ms > Number.MAX_SAFE_INTEGER) {
    return { problem: 'cannot convert float seconds to Duration: value is either too big or NaN' };
  }
  return { ms };
}
