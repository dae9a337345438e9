import { decodeRecord, encodeRecord } from './storage-shim.js';
import type { Checkpoint } from './types.js';

/** The record kind and version of a checkpoint (a newer version in a store is refused). */
export const CHECKPOINT_KIND = 'graph-checkpoint';
export const CHECKPOINT_VERSION = 1;

/**
 * A checkpoint as versioned JSON text. State JSON cannot hold (a function, a class instance, a
 * cycle, a BigInt, undefined in a list, NaN) is refused here, with the path of the value
 * (`state.data.orders[3].placedAt`), so a checkpoint is never stored half-broken.
 */
export function encodeCheckpoint(checkpoint: Checkpoint): string {
  // The path starts at the checkpoint's fields: `state.data.orders[3].placedAt`.
  return encodeRecord(CHECKPOINT_KIND, CHECKPOINT_VERSION, checkpoint);
}

/** Back from `encodeCheckpoint`'s text; `where` names the place for errors (a file, a row). */
export function decodeCheckpoint(text: string, where: string): Checkpoint {
  return decodeRecord(text, CHECKPOINT_KIND, CHECKPOINT_VERSION, where) as Checkpoint;
}
