import type { AgentYamlValues } from './agent-yaml.js';

/** The cassette `agentlib init` writes beside agent.yaml, and the note that says how it was made. */
export const CASSETTE_FILE = 'cassette.jsonl';
export const PROVENANCE_FILE = 'PROVENANCE.md';
/** The folder of a template's per-case eval cassettes (`agentlib eval run eval.yaml --replay eval-cassettes`). */
export const EVAL_CASSETTES_DIR = 'eval-cassettes';

type Line = Record<string, unknown>;

/**
 * A template's cassette made to replay for the agent `init` wrote: the header names the chosen
 * provider and model, and every recorded request (and the model its reply names) carries the chosen
 * model, since replay matches requests exactly and the written agent.yaml sets `model`. Everything
 * else (the conversation, tool results, capabilities) stays as recorded.
 */
export function retargetCassette(text: string, values: Pick<AgentYamlValues, 'provider' | 'model'>): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return `${lines
    .map((line) => {
      const entry = JSON.parse(line) as Line;
      if (entry['type'] === 'cassette') return JSON.stringify({ ...entry, provider: values.provider, defaultModel: values.model });
      const request = entry['request'] as Line | undefined;
      const parts = entry['parts'] as Line[] | undefined;
      return JSON.stringify({
        ...entry,
        ...(request === undefined ? {} : { request: { ...request, model: values.model } }),
        ...(parts === undefined ? {} : { parts: parts.map((part) => (part['type'] === 'finish' && 'model' in part ? { ...part, model: values.model } : part)) }),
      });
    })
    .join('\n')}\n`;
}

/** The first user prompt a cassette holds (the prompt that replays it), or undefined. */
export function cassettePrompt(text: string): string | undefined {
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const entry = JSON.parse(line) as Line;
    const messages = (entry['request'] as { messages?: { role?: unknown; content?: unknown }[] } | undefined)?.messages;
    const first = messages?.find((message) => message.role === 'user');
    if (typeof first?.content === 'string') return first.content;
  }
  return undefined;
}
