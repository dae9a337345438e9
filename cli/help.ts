import type { CommandDescriptor } from './command-descriptor.js';

/** Environment variables the CLI reads, shown in the `--help` epilogue. */
export const ENVIRONMENT_VARIABLES: readonly (readonly [name: string, meaning: string])[] = [
  ['OPENAI_API_KEY', 'API key for OpenAI models'],
  ['ANTHROPIC_API_KEY', 'API key for Anthropic models'],
  ['GEMINI_API_KEY', 'API key for Google Gemini models (or GOOGLE_API_KEY)'],
  ['OLLAMA_HOST', 'Ollama server URL (default http://127.0.0.1:11434)'],
  ['NO_COLOR', 'any non-empty value turns colour off (like --no-color)'],
  ['AGENTLIB_AUTH_TOKEN', 'bearer token `agentlib serve` requires from clients'],
];

/** The usage line and summary at the top of `--help`. */
export const USAGE = '$0 <command> [options]\n\nBuild, run, serve, evaluate and debug tool-calling LLM agents.';

/** Examples shown for the whole program: the general ones plus every command's. */
export function programExamples(commands: readonly CommandDescriptor[]): [string, string][] {
  return [
    ['$0 <command> --help', 'show the options of one command'],
    ['NO_COLOR=1 $0 <command>', 'run without colour (or pass --no-color)'],
    ...commands.flatMap((command) => (command.examples ?? []).map(([line, meaning]): [string, string] => [line, meaning])),
  ];
}

/** The epilogue: environment variables, exit codes and where the docs are. */
export function epilogue(): string {
  const width = Math.max(...ENVIRONMENT_VARIABLES.map(([name]) => name.length)) + 2;
  const env = ENVIRONMENT_VARIABLES.map(([name, meaning]) => `  ${name.padEnd(width)}${meaning}`).join('\n');
  return [
    `Environment variables:\n${env}`,
    'Exit codes: 0 ok, 1 eval failed, 2 usage or config error,\n' +
      '  3 runtime or provider error, 4 nothing matched, 130 interrupted.',
    'Docs: docs/cli.md in the agentlib repository.',
  ].join('\n\n');
}
