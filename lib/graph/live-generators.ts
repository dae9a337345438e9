import type { NodeReturn } from './types.js';
import type { InterruptRequest } from './interrupt.js';

type NodeGen = AsyncGenerator<InterruptRequest, NodeReturn, unknown>;

/**
 * The generators of this process that wait at an interrupt, by interruptId: an in-process resume
 * sends the answer into the same generator (its node is not entered again). Bounded: past `max`,
 * the oldest is closed (a resume of it then replays, as in another process).
 */
export class LiveGenerators {
  readonly #waiting = new Map<string, NodeGen>();

  constructor(readonly max = 1_000) {}

  /** Keeps `gen`, waiting on `interruptId`. */
  keep(interruptId: string, gen: NodeGen): void {
    this.#waiting.set(interruptId, gen);
    if (this.#waiting.size > this.max) {
      const [oldestId, oldest] = this.#waiting.entries().next().value as [string, NodeGen];
      this.#waiting.delete(oldestId);
      void oldest.return(undefined).catch(() => undefined);
    }
  }

  /** Takes the generator waiting on `interruptId` (it is no longer kept). */
  take(interruptId: string): NodeGen | undefined {
    const gen = this.#waiting.get(interruptId);
    this.#waiting.delete(interruptId);
    return gen;
  }

  /** How many wait. */
  get size(): number {
    return this.#waiting.size;
  }
}
