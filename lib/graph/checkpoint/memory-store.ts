import { decodeCheckpoint, encodeCheckpoint } from './codec.js';
import { pageOf } from './page.js';
import { checkStoreId } from '../../storage/store-id.js';
import type { Checkpoint, CheckpointStore, InterruptClaim, ListCheckpointsOptions } from './types.js';

 

/**
 * Checkpoints in this process's memory, kept as encoded JSON (the same strict encoding as the
 * persistent stores, so a state that could not be stored elsewhere is refused here too, and a
 * later change to the state object does not change a checkpoint).
 */
export class InMemoryCheckpointStore implements CheckpointStore {
  /** Thread → encoded checkpoints, oldest first. */
  readonly #threads = new Map<string, { id: string; text: string }[]>();
  readonly #byId = new Map<string, string>();
  /** Thread → interrupt id → claim. */
  readonly #claims = new Map<string, Map<string, InterruptClaim>>();

  async put(checkpoint: Checkpoint): Promise<void> {
    checkStoreId(checkpoint.threadId, 'thread id');
    checkStoreId(checkpoint.id, 'checkpoint id');
    this.putRaw(checkpoint.threadId, checkpoint.id, encodeCheckpoint(checkpoint));
  }

  /** @internal Tests: stores `text` as it is (a corrupt or future-version record). */
  putRaw(threadId: string, id: string, text: string): void {
    let list = this.#threads.get(threadId);
    if (!list) this.#threads.set(threadId, (list = []));
    list.push({ id, text });
    this.#byId.set(id, text);
  }

  async getLatest(threadId: string): Promise<Checkpoint | undefined> {
    const list = this.#threads.get(checkStoreId(threadId, 'thread id'));
    const last = list?.[list.length - 1];
    return last ? decodeCheckpoint(last.text, `memory checkpoint ${last.id}`) : undefined;
  }

  async get(checkpointId: string): Promise<Checkpoint | undefined> {
    const text = this.#byId.get(checkpointId);
    return text === undefined ? undefined : decodeCheckpoint(text, `memory checkpoint ${checkpointId}`);
  }

  async list(threadId: string, options: ListCheckpointsOptions = {}): Promise<Checkpoint[]> {
    const newestFirst = [...(this.#threads.get(checkStoreId(threadId, 'thread id')) ?? [])].reverse();
    return pageOf(newestFirst, options).map((c) => decodeCheckpoint(c.text, `memory checkpoint ${c.id}`));
  }

  async threads(): Promise<string[]> {
    return [...this.#threads.keys()].sort();
  }

  async deleteThread(threadId: string): Promise<number> {
    const list = this.#threads.get(checkStoreId(threadId, 'thread id')) ?? [];
    for (const c of list) this.#byId.delete(c.id);
    this.#threads.delete(threadId);
    this.#claims.delete(threadId);
    return list.length;
  }

  async claimInterrupt(threadId: string, claim: InterruptClaim, takeOver = false): Promise<InterruptClaim | undefined> {
    let claims = this.#claims.get(checkStoreId(threadId, 'thread id'));
    if (!claims) this.#claims.set(threadId, (claims = new Map<string, InterruptClaim>()));
    const held = claims.get(claim.interruptId);
    if (held && !takeOver) return { ...held };
    claims.set(claim.interruptId, { ...claim });
    return undefined;
  }

  async releaseInterrupt(threadId: string, interruptId: string, owner: string): Promise<void> {
    const claims = this.#claims.get(checkStoreId(threadId, 'thread id'));
    if (claims?.get(interruptId)?.owner === owner) claims.delete(interruptId);
  }

  async close(): Promise<void> {}
}
