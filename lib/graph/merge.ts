import { AgentUsage } from '../core/usage.js';
import type { Message } from '../core/message.js';
import { MergePolicy } from './constants.js';
import type { NodeOutcome } from './outcome.js';
import type { NodeUpdate, ReadonlyGraphState } from './state.js';

/**
 * Merges the outcomes of a parallel group's members (or a scatter's branches), given in
 * declaration order (not completion order, so the result does not depend on timing):
 * - messages: every member's, in member order;
 * - LAST_WINS / FIRST_WINS: a `data` / `metadata` key several members set takes the last / first
 *   member's value; the output is the last / first member output;
 * - APPEND: every `data` key a member set becomes a list: the state's current value (an array as
 *   is, another value as a one-item list) followed by each member's value (an array value is
 *   spread); `metadata` keys merge as LAST_WINS; the output is the list of member outputs.
 */
export function mergeOutcomes(outcomes: readonly NodeOutcome[], policy: MergePolicy, state: ReadonlyGraphState): NodeOutcome {
  const usage = new AgentUsage();
  const messages: Message[] = [];
  const data: Record<string, unknown> = {};
  const metadata: Record<string, unknown> = {};
  const outputs: unknown[] = [];
  const update: NodeUpdate = {};
  for (const outcome of outcomes) {
    usage.merge(outcome.usage);
    const u = outcome.update;
    if (u.messages) messages.push(...u.messages);
    if (u.output !== undefined) outputs.push(u.output);
    if (u.metadata) for (const [key, value] of Object.entries(u.metadata)) if (policy !== MergePolicy.FIRST_WINS || !(key in metadata)) metadata[key] = value;
    if (!u.data) continue;
    for (const [key, value] of Object.entries(u.data)) {
      if (policy === MergePolicy.APPEND) {
        const list = key in data ? (data[key] as unknown[]) : asList(state.data[key]);
        if (Array.isArray(value)) list.push(...(value as unknown[]));
        else list.push(value);
        data[key] = list;
      } else if (policy === MergePolicy.LAST_WINS || !(key in data)) {
        data[key] = value;
      }
    }
  }
  if (messages.length > 0) update.messages = messages;
  if (Object.keys(data).length > 0) update.data = data;
  if (Object.keys(metadata).length > 0) update.metadata = metadata;
  if (outputs.length > 0) update.output = policy === MergePolicy.APPEND ? outputs : policy === MergePolicy.FIRST_WINS ? outputs[0] : outputs[outputs.length - 1];
  return {
    update,
    results: outcomes.flatMap((o) => o.results),
    usage,
    errors: outcomes.flatMap((o) => o.errors),
  };
}

function asList(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? [...(value as unknown[])] : [value];
}
