/**
 * "One in flight, one queued": a task triggered again while it runs is run once more after it,
 * however many triggers arrived meanwhile. A flood of triggers (a server's `list_changed`
 * notifications, a TUI's status refreshes) thus costs at most two runs, and the last trigger is
 * always followed by a run that started after it.
 */

export class Coalescer {
  #running: Promise<void> | null = null;
  #queued: Promise<void> | null = null;

  constructor(private readonly task: () => Promise<void>) {}

  /**
   * Run the task now, or once after the current run. Resolves (or rejects) with the run that
   * covers this trigger; a failed run never stops the queued one.
   */
  run(): Promise<void> {
    if (this.#running === null) {
      let started: Promise<void>;
      try {
        started = this.task();
      } catch (error) {
        started = Promise.reject(error);
      }
      this.#running = started.finally(() => {
        this.#running = null;
      });
      return this.#running;
    }
    this.#queued ??= this.#running
      .catch(() => undefined)
      .then(() => {
        this.#queued = null;
        return this.run();
      });
    return this.#queued;
  }
}
