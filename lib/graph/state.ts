import { createHash } from 'node:crypto';
import { userMessage, type Message } from '../core/message.js';
import { assertStrictJson } from '../storage/strict-json.js';
import { LAST_OUTPUT_KEY } from './constants.js';

/** A node error kept in the state (ErrorPolicy SKIP, or the last failure before a retry succeeded). */
export interface GraphNodeError {
  node: string;
  /** The error's class name. */
  name: string;
  message: string;
  /** The graph step it happened at. */
  step: number;
}

/**
 * The state a graph run carries from node to node. JSON only (it is checkpointed): a value JSON
 * cannot hold is refused when the checkpoint is written, with the path of the value.
 */
export interface GraphState {
  /** The conversation: the prompt, then every agent node's answer (named after the node). */
  messages: Message[];
  /** Shared data; `data.__last_output__` holds the previous node's output. */
  data: Record<string, unknown>;
  /** The nodes that ran, in order (parallel members and scatter targets in declaration order). */
  history: string[];
  /** Free-form run metadata (set by the caller, by nodes through `metadata` updates). */
  metadata: Record<string, unknown>;
  /** Node errors that ErrorPolicy SKIP let through. */
  errors: GraphNodeError[];
}

/** The state as nodes see it: they return updates instead of changing it. */
export type ReadonlyGraphState = {
  readonly messages: readonly Message[];
  readonly data: Readonly<Record<string, unknown>>;
  readonly history: readonly string[];
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly errors: readonly GraphNodeError[];
};

/**
 * What a function node returns to change the state. Every key is optional; `data` and `metadata`
 * are merged key by key (shallow), `messages` are appended, `output` becomes
 * `data.__last_output__` (and the node's result). A node may also return a plain value (a string,
 * a number, an array, null): that value is its output.
 */
export interface NodeUpdate {
  output?: unknown;
  data?: Record<string, unknown>;
  messages?: Message[];
  metadata?: Record<string, unknown>;
}

/** The keys a NodeUpdate may have (anything else in a returned object is refused). */
export const NODE_UPDATE_KEYS: ReadonlySet<string> = new Set(['output', 'data', 'messages', 'metadata']);

/** A fresh state for a prompt (no prompt: no message). */
export function initialState(prompt: string | readonly Message[] | undefined, data: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): GraphState {
  const messages: Message[] = prompt === undefined ? [] : typeof prompt === 'string' ? [userMessage(prompt)] : [...prompt];
  return { messages, data: { ...data }, history: [], metadata: { ...metadata }, errors: [] };
}

/** Applies `update` (from `node`) to `state` in place. */
export function applyUpdate(state: GraphState, update: NodeUpdate): void {
  if (update.data) Object.assign(state.data, update.data);
  if (update.metadata) Object.assign(state.metadata, update.metadata);
  if (update.messages) for (const message of update.messages) state.messages.push(message);
  if (update.output !== undefined) state.data[LAST_OUTPUT_KEY] = update.output;
}

/** A copy deep enough for a node to get its own state (messages and data containers copied). */
export function copyState(state: ReadonlyGraphState): GraphState {
  return {
    messages: [...state.messages],
    data: { ...state.data },
    history: [...state.history],
    metadata: { ...state.metadata },
    errors: [...state.errors],
  };
}

/**
 * Hashes the whole state (messages, data, metadata and errors; not `history`, which grows at every
 * step) for loop and stall detection. Messages only grow by appending, so their part is a rolling
 * hash kept across steps: `messagesHash` chains every message once.
 */
export class StateHasher {
  #messagesHash = '';
  #hashedMessages = 0;

  /** The hash of `state` now. */
  hash(state: ReadonlyGraphState): string {
    const messages = state.messages;
    if (messages.length < this.#hashedMessages) {
      // A fork replaced the messages: start over.
      this.#messagesHash = '';
      this.#hashedMessages = 0;
    }
    for (let i = this.#hashedMessages; i < messages.length; i++) {
      this.#messagesHash = createHash('sha1').update(this.#messagesHash).update(stringify(messages[i], `state.messages[${i}]`)).digest('hex');
    }
    this.#hashedMessages = messages.length;
    return createHash('sha1')
      .update(this.#messagesHash)
      .update('\u0000')
      .update(stringify(state.data, 'state.data'))
      .update('\u0000')
      .update(stringify(state.metadata, 'state.metadata'))
      .update('\u0000')
      .update(String(state.errors.length))
      .digest('hex')
      .slice(0, 16);
  }
}

/** JSON text of `value`; what JSON.stringify cannot handle (a BigInt, a cycle) is reported with its path. */
function stringify(value: unknown, path: string): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch (error) {
    assertStrictJson(value, path); // throws NonSerializableError naming the path
    throw error;
  }
}
