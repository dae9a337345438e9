import { GraphExecutionError } from '../core/errors/graph-execution-error.js';
import { InterruptError } from '../core/errors/interrupt-error.js';
import { generateId } from '../core/ids.js';
import { checkStoreId } from '../storage/store-id.js';
import type { Checkpoint, CheckpointStore } from './checkpoint/types.js';
import type { GraphRunOptions } from './types.js';

/** @internal An interrupt the thread's latest checkpoint waits on, with that checkpoint. */
export interface PendingInterrupt {
  latest: Checkpoint;
  pending: Checkpoint['interrupts'][number];
}

/**
 * @internal The thread's latest checkpoint and its pending interrupt `interruptId`; an
 * InterruptError when the latest checkpoint does not wait on it: `used` when an earlier one did,
 * else `unknown`.
 */
export async function pendingInterrupt(store: CheckpointStore, threadId: string, interruptId: string): Promise<PendingInterrupt> {
  const latest = await store.getLatest(checkStoreId(threadId, 'thread id'));
  const pending = latest?.interrupts.find((i) => i.id === interruptId);
  if (latest && pending) return { latest, pending };
  const earlier = latest ? await store.list(threadId, { limit: 10_000 }) : [];
  throw new InterruptError(interruptId, earlier.some((c) => c.interrupts.some((i) => i.id === interruptId)) ? 'used' : 'unknown');
}

/**
 * @internal Claims `interruptId` in the store for a new run id (returned), so that two resumes of
 * it (two server processes sharing one store) never both run the interrupted node: a claim
 * another resume holds is an InterruptError `claimed`, unless `takeOver`. The caller checks the
 * interrupt is still pending after the claim (a resume that ended between its read and the claim
 * has moved the thread on) and releases the claim when its run ends.
 */
export async function claimInterrupt(store: CheckpointStore, threadId: string, interruptId: string, takeOver: boolean): Promise<string> {
  const owner = generateId('run');
  const held = await store.claimInterrupt(threadId, { interruptId, owner, claimedAt: new Date().toISOString() }, takeOver);
  if (held) throw new InterruptError(interruptId, 'claimed', { claim: held });
  return owner;
}

/** @internal `takeOverClaim` means something to resume only. */
export function refuseTakeOver(options: GraphRunOptions, method: string): void {
  if (options.takeOverClaim !== undefined) throw new GraphExecutionError(`takeOverClaim is an option of resume, not of ${method}`);
}
