import { GraphExecutionError } from '../core/errors/graph-execution-error.js';
import { NODE_UPDATE_KEYS, type NodeUpdate } from './state.js';
import type { NodeReturn } from './types.js';

/**
 * Turns what a function node returned into a NodeUpdate: an object is an update (any key but
 * output/data/messages/metadata is refused, so a typo is not silently dropped); any other value
 * is the node's output.
 */
export function toNodeUpdate(node: string, value: NodeReturn): NodeUpdate {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { output: value };
  const unknown = Object.keys(value).filter((key) => !NODE_UPDATE_KEYS.has(key));
  if (unknown.length > 0) {
    throw new GraphExecutionError(
      `node "${node}" returned an object with ${unknown.length === 1 ? 'an unknown key' : 'unknown keys'} ${unknown.map((k) => `"${k}"`).join(', ')}: ` +
        'a node returns { output, data, messages, metadata } (to output an object, return { output: { … } })',
      { node },
    );
  }
  const update = value as NodeUpdate;
  if (update.data !== undefined && !isRecord(update.data)) throw new GraphExecutionError(`node "${node}" returned data that is not an object`, { node });
  if (update.metadata !== undefined && !isRecord(update.metadata)) throw new GraphExecutionError(`node "${node}" returned metadata that is not an object`, { node });
  if (update.messages !== undefined && !Array.isArray(update.messages)) throw new GraphExecutionError(`node "${node}" returned messages that are not a list`, { node });
  return update;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A node output as text: a string as is, anything else as JSON ('' for none). */
export function outputText(output: unknown): string {
  if (output === undefined || output === null) return '';
  if (typeof output === 'string') return output;
  return JSON.stringify(output) ?? '';
}
