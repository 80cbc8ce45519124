/**
 * One session's registrations that environments contribute from their OWN config (ssh: the
 * remote host's `~/.mcprt/config.toml`), read through the environment at session start and again
 * on reload. Each environment is read independently: a slow or unreachable one never delays the
 * others, and a failed read fails only that environment's remote registrations — its error (which
 * names the environment) is kept for status and the last good set stays in place.
 */

import type { EnvironmentRegistry } from '../environments/registry.js';
import type { RegistrationSource } from './registration.js';

interface EnvironmentEntry {
  sources: RegistrationSource[];
  error: string | null;
  /** Where the registrations were read (for people), once read. */
  file: string | null;
  reading: Promise<void> | null;
  generation: number;
  done: boolean;
}

export class RemoteRegistrations {
  private readonly entries = new Map<string, EnvironmentEntry>();

  /** `onRead` runs after each completed read, before `settled()` resolves for it. */
  constructor(private readonly onRead: (environmentId: string) => void) {}

  /**
   * Read the environments among `ids` that contribute registrations. Without `force`, an
   * environment already read (or being read) is left alone; with it, it is read again.
   */
  read(registry: EnvironmentRegistry, ids: readonly string[], force = false): void {
    for (const id of ids) {
      const environment = registry.get(id);
      if (environment?.readRegistrations === undefined) continue;
      const entry = this.entries.get(id) ?? {
        sources: [],
        error: null,
        file: null,
        reading: null,
        generation: 0,
        done: false,
      };
      this.entries.set(id, entry);
      if (!force && (entry.reading !== null || entry.done)) continue;
      const generation = ++entry.generation;
      const reading = environment.readRegistrations().then(
        (result) => {
          if (entry.generation !== generation) return;
          entry.sources = [
            ...result.servers.map((config) => ({ kind: 'valid' as const, config })),
            ...result.invalidServers.map((config) => ({ kind: 'invalid' as const, config })),
          ];
          entry.file = result.file;
          entry.error = null;
        },
        (error: unknown) => {
          if (entry.generation !== generation) return;
          entry.error = error instanceof Error ? error.message : String(error);
        },
      );
      entry.reading = reading.then(() => {
        if (entry.generation !== generation) return;
        entry.reading = null;
        entry.done = true;
        this.onRead(id);
      });
    }
  }

  /** Resolves when the reads of `ids` (default: all) have completed, newer ones included. */
  async settled(ids?: readonly string[]): Promise<void> {
    const wanted = ids ?? [...this.entries.keys()];
    await Promise.all(
      wanted.map(async (id) => {
        for (;;) {
          const reading = this.entries.get(id)?.reading;
          if (reading === null || reading === undefined) return;
          await reading;
        }
      }),
    );
  }

  /** Every remote registration read so far (the last good set of each environment). */
  sources(): RegistrationSource[] {
    return [...this.entries.values()].flatMap((e) => e.sources);
  }

  /** Why the environment's own config could not be read, or null. */
  error(environmentId: string): string | null {
    return this.entries.get(environmentId)?.error ?? null;
  }

  /** The environment's config location once read (null before, or when not applicable). */
  file(environmentId: string): string | null {
    return this.entries.get(environmentId)?.file ?? null;
  }
}
