import type { Message } from '../core/message.js';
import { Role } from '../core/role.js';
import type { Provider, ProviderUsage } from '../providers/spec.js';
import { stripThink } from '../agent/think-filter.js';

/** The longest summary kept, in characters (REFERENCE.md §1): a summary never grows without bound. */
export const MAX_SUMMARY_CHARS = 4000;

/** Default length cap of a summary reply, in tokens. */
export const DEFAULT_SUMMARY_MAX_TOKENS = 500;

/** How trimmed messages are summarised: its own provider, model and reply length. */
export interface SummarizeOptions {
  provider: Provider;
  /** Default: the provider's default model. */
  model?: string;
  /** Cap of the summary reply, in tokens. Default 500. */
  maxTokens?: number;
}

const SYSTEM = [
  'You maintain a running summary of a conversation between a user and an assistant.',
  'Merge the earlier summary (if any) with the new messages into one updated summary.',
  'Keep facts, names, numbers, decisions, open questions and tool results that matter later.',
  `Write plain prose, at most ${MAX_SUMMARY_CHARS} characters. Reply with the summary only.`,
].join(' ');

/** One line of a transcript: the role (or the tool) and the text, tool calls spelled out. */
export function transcriptLine(message: Message): string {
  const calls = (message.toolCalls ?? []).map((c) => ` [called ${c.toolName}(${JSON.stringify(c.parameters)})]`).join('');
  const who = message.role === Role.TOOL ? `tool ${message.toolName ?? ''}`.trim() : message.role;
  return `${who}: ${message.content}${calls}`;
}

/** Cuts `text` to at most `max` characters, at a word boundary when one is near, marking the cut. */
export function capSummary(text: string, max = MAX_SUMMARY_CHARS): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const cut = trimmed.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.8 ? cut.slice(0, space) : cut}…`;
}

/**
 * Asks the summary model for one summary of `previous` (the summary so far, may be '') and
 * `messages` (the ones leaving the window). The result is capped at MAX_SUMMARY_CHARS.
 */
export async function summarize(
  options: SummarizeOptions,
  previous: string,
  messages: readonly Message[],
  signal?: AbortSignal,
): Promise<{ summary: string; usage: ProviderUsage | undefined }> {
  const parts = [previous === '' ? 'Earlier summary: (none)' : `Earlier summary:\n${previous}`, `New messages:\n${messages.map(transcriptLine).join('\n')}`];
  const response = await options.provider.complete({
    model: options.model ?? options.provider.defaultModel,
    system: SYSTEM,
    messages: [{ role: Role.USER, content: parts.join('\n\n') }],
    temperature: 0,
    maxTokens: options.maxTokens ?? DEFAULT_SUMMARY_MAX_TOKENS,
    ...(signal === undefined ? {} : { signal }),
  });
  return { summary: capSummary(stripThink(response.message.content).text), usage: response.usage };
}
