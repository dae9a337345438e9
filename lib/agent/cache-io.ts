import { AgentlibError } from '../core/errors/agentlib-error.js';
import { serializeError } from '../events/serialized-error.js';
import type { RunState } from './run-state.js';
import type { CacheHint } from './types.js';

/** What a cache access was for: `response` (LLM replies) or `tool "name"`. */
export interface CacheSite {
  what: string;
}

async function report(state: RunState, site: CacheSite, action: 'read' | 'write', error: unknown): Promise<void> {
  const message = `${site.what} cache ${action} failed: ${error instanceof Error ? error.message : String(error)}`;
  await state.emit('error', { error: serializeError(new AgentlibError(message, { cause: error })), stage: 'cache' });
}

/** Reads the agent's cache; a failing cache is reported (an `error` event) and counts as a miss. */
export async function cacheRead(state: RunState, site: CacheSite, key: string, hint: CacheHint): Promise<unknown> {
  try {
    return await state.config.cache?.get(key, hint);
  } catch (error) {
    await report(state, site, 'read', error);
    return undefined;
  }
}

/** Writes the agent's cache; a failing cache is reported and otherwise ignored. */
export async function cacheWrite(state: RunState, site: CacheSite, key: string, value: unknown, hint: CacheHint, ttlSeconds?: number): Promise<void> {
  try {
    await state.config.cache?.set(key, value, ttlSeconds, hint);
  } catch (error) {
    await report(state, site, 'write', error);
  }
}
