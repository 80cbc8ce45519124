/**
 * A warm-up run once per process, in a later event-loop turn, never holding the process open:
 * the priming of a call path (ADR 0027), one per package that owns such a path (the runtime's and
 * the app-server's). A warm-up that throws changes nothing: it is an optimisation only.
 */

export class ProcessWarmUp {
  private scheduled = false;
  private ran = false;

  constructor(private readonly run: () => void) {}

  /** Run it in the next turn; later calls do nothing. */
  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      try {
        this.run();
        this.ran = true;
      } catch {
        // the first real call compiles what is left, as without priming
      }
    }).unref();
  }

  /** Whether it has run to its end (tests). */
  get done(): boolean {
    return this.ran;
  }
}
