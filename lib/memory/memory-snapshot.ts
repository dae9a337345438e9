import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { Message } from '../core/message.js';
import { messagesProblem } from './message-shape.js';

/** Version of the ConversationMemory JSON format. */
export const MEMORY_SNAPSHOT_VERSION = 1;

/** ConversationMemory as plain JSON (`toJSON` / `fromJSON`). */
export interface MemorySnapshot {
  kind: 'conversation-memory';
  version: number;
  messages: Message[];
  summary: string;
  /** null: no message limit. */
  maxMessages?: number | null;
  maxTokens?: number;
}

function fail(problem: string): never {
  throw new ConfigurationError(`Not a ConversationMemory snapshot: ${problem}`, { key: 'memory' });
}

/** Checks `data` is a snapshot this version can read; throws a ConfigurationError naming the problem. */
export function parseMemorySnapshot(data: unknown): MemorySnapshot {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) fail('expected an object');
  const record = data as Record<string, unknown>;
  if (record.kind !== 'conversation-memory') fail(`kind is ${JSON.stringify(record.kind)}, expected "conversation-memory"`);
  if (record.version !== MEMORY_SNAPSHOT_VERSION) fail(`version ${JSON.stringify(record.version)} is not supported (this agentlib reads version ${MEMORY_SNAPSHOT_VERSION})`);
  const problem = messagesProblem(record.messages, 'messages');
  if (problem !== undefined) fail(problem);
  if (typeof record.summary !== 'string') fail('summary must be a string');
  for (const key of ['maxMessages', 'maxTokens'] as const) {
    const value = record[key];
    if (value !== undefined && !(key === 'maxMessages' && value === null) && (!Number.isInteger(value) || (value as number) < 1)) fail(`${key} must be a positive integer`);
  }
  return record as unknown as MemorySnapshot;
}
