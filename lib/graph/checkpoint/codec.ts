import { assertStrictJson } from '../../storage/strict-json.js';
import { decodeRecord, encodeRecord } from '../../storage/record.js';
import { NonSerializableError } from '../../storage/errors/non-serializable-error.js';
import type { Checkpoint } from './types.js';

/** The record kind and version of a checkpoint (a newer version in a store is refused). */
export const CHECKPOINT_KIND = 'graph-checkpoint';
export const CHECKPOINT_VERSION = 1;

/**
 * A checkpoint as a versioned record (lib/storage). State JSON cannot hold (a function, a class
 * instance, a cycle, a BigInt, undefined in a list, NaN) is refused here with NonSerializableError
 * naming the path (`state.data.orders[3].placedAt`), so a checkpoint is never stored half-broken.
 */
export function encodeCheckpoint(checkpoint: Checkpoint): string {
  // One walk of the checkpoint on the hot path (encodeRecord checks it strictly); only when that
  // fails is the state walked again, to name the bad value from `state` (not from the envelope).
  try {
    return encodeRecord(CHECKPOINT_KIND, CHECKPOINT_VERSION, checkpoint);
  } catch (error) {
    if (NonSerializableError.isInstance(error)) assertStrictJson(checkpoint.state, 'state');
    throw error;
  }
}

/** Back from `encodeCheckpoint`'s text; `where` names the place for errors (a file, a row). CorruptRecordError / SchemaVersionError. */
export function decodeCheckpoint(text: string, where: string): Checkpoint {
  return decodeRecord<Checkpoint>(text, { kind: CHECKPOINT_KIND, version: CHECKPOINT_VERSION, where });
}
