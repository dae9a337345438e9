import { decodeCheckpoint, encodeCheckpoint } from './codec.js';
import { pageOf } from './page.js';
import type { Checkpoint, CheckpointStore, ListCheckpointsOptions } from './types.js';

/**
 * Checkpoints in this process's memory, kept as encoded JSON (the same strict encoding as the
 * persistent stores, so a state that could not be stored elsewhere is refused here too, and a
 * later change to the state object does not change a checkpoint).
 */
export class InMemoryCheckpointStore implements CheckpointStore {
  /** Thread → encoded checkpoints, oldest first. */
  readonly #threads = new Map<string, { id: string; text: string }[]>();
  readonly #byId = new Map<string, string>();
  async put(checkpoint: Checkpoint): Promise<void> {
    const text = encodeCheckpoint(checkpoint);
    let list = this.#threads.get(checkpoint.threadId);
    if (!list) this.#threads.set(checkpoint.threadId, (list = []));
    list.push({ id: checkpoint.id, text });
    this.#byId.set(checkpoint.id, text);
  }

  getLatest(threadId: string): Promise<Checkpoint | undefined> {
    const list = this.#threads.get(threadId);
    const last = list?.[list.length - 1];
    return Promise.resolve(last ? decodeCheckpoint(last.text, `memory checkpoint ${last.id}`) : undefined);
  }

  get(checkpointId: string): Promise<Checkpoint | undefined> {
    const text = this.#byId.get(checkpointId);
    return Promise.resolve(text === undefined ? undefined : decodeCheckpoint(text, `memory checkpoint ${checkpointId}`));
  }

  list(threadId: string, options: ListCheckpointsOptions = {}): Promise<Checkpoint[]> {
    const newestFirst = [...(this.#threads.get(threadId) ?? [])].reverse();
    return Promise.resolve(pageOf(newestFirst, options).map((c) => decodeCheckpoint(c.text, `memory checkpoint ${c.id}`)));
  }

  threads(): Promise<string[]> {
    return Promise.resolve([...this.#threads.keys()].sort());
  }

  deleteThread(threadId: string): Promise<number> {
    const list = this.#threads.get(threadId) ?? [];
    for (const c of list) this.#byId.delete(c.id);
    this.#threads.delete(threadId);
    return Promise.resolve(list.length);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
