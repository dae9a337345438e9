import assert from 'node:assert/strict';

/** The tool calls each cassette makes, in order (the blank agent's is `blank`). */
export const EXPECTED_TOOLS: Readonly<Record<string, readonly string[]>> = {
  blank: ['convert_temperature'],
  code_reviewer: ['list_files', 'read_file', 'read_file'],
  customer_support: ['search_kb', 'get_article'],
  data_analyst: ['list_tables', 'describe_table', 'describe_table', 'describe_table', 'run_sql'],
  rag_chatbot: ['search_documents'],
  research_assistant: ['web_search'],
};

/** An environment with no provider or search key (nor base URL), as on a fresh machine. */
export function keylessEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/API_KEY|_TOKEN|BASE_URL|^OLLAMA_HOST$|^AGENTLIB_/.test(name)) env[name] = value;
  }
  return { ...env, CI: 'true', NO_COLOR: '1' };
}

/** The words of a shell command line (double-quoted words kept whole, quotes removed). */
export function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}

/** The arguments of a `npx agentlib …` line. */
export function commandArgs(line: string): string[] {
  const words = shellWords(line);
  assert.deepEqual(words.slice(0, 2), ['npx', 'agentlib'], line);
  return words.slice(2);
}

/** The run document of `--output-format json`. */
export interface RunDocument {
  status: string;
  content: string;
  provider: string | null;
  model: string | null;
  toolCalls: { toolName: string }[];
}

/** The names of a run document's tool calls, in order. */
export function toolNames(doc: RunDocument): string[] {
  return doc.toolCalls.map((call) => call.toolName);
}
