import type { CommandDescriptor } from '../command-descriptor.js';

/** `agentlib run`: options only; the implementation (commands/run.ts) loads when it runs. */
export const runCommand: CommandDescriptor = {
  name: 'run',
  positionals: '<agent> [prompt]',
  description: 'Run an agent (YAML file or template name) once on a prompt',
  examples: [
    ['$0 run agent.yaml "What is the weather in Oslo?"', 'run an agent on a prompt'],
    ['echo "summarise this" | $0 run agent.yaml --output-format json', 'prompt from stdin, result as one JSON document'],
    ['$0 run examples/calculator/agent.yaml "What is 1231 * 2331?" --replay examples/calculator/cassette.jsonl', 'replay a recorded run offline'],
  ],
  builder: (yargs) =>
    yargs
      .positional('agent', { type: 'string', describe: 'agent YAML file, or a template name (customer_support, data_analyst, …)' })
      .positional('prompt', { type: 'string', describe: 'the prompt; read from stdin when omitted' })
      .option('output-format', { alias: 'o', choices: ['text', 'json', 'stream-json'] as const, default: 'text', describe: 'text answer, one JSON document, or JSONL of every event' })
      .option('model', { alias: 'm', type: 'string', describe: "override the file's model" })
      .option('provider', { alias: 'p', type: 'string', describe: "override the file's provider (openai, anthropic, gemini, ollama)" })
      .option('max-iterations', { type: 'number', describe: 'override max_iterations' })
      .option('var', { type: 'string', array: true, describe: 'set a ${variable} for the YAML and the tools: --var key=value (repeatable)' })
      .option('trace', { type: 'string', describe: 'write the trace here (default .agentlib/traces/<run>.jsonl; --no-trace: none)' })
      .option('approve', { type: 'string', describe: 'answer tool approvals: all, none, or a policy YAML (default: ask on a terminal, else none)' })
      .option('record', { type: 'string', describe: 'record every provider call to this cassette (JSONL)' })
      .option('replay', { type: 'string', describe: 'answer provider calls from this cassette (no network)' })
      .option('timeout', { type: 'number', describe: 'seconds without a byte from the provider before a call fails and is retried: the wait for the first byte and between stream chunks (default 60; 0: none)' })
      .option('cache', { type: 'string', describe: 'cache LLM replies and cacheable tool results: a store URL (sqlite://file.db, redis://host:6379, memory://), or no value for .agentlib/agentlib.db; the run is then not streamed. --no-cache: ignore the file\'s cache:' })
      .option('trust-mcp', { type: 'boolean', default: false, describe: "spawn the agent file's stdio MCP servers without asking (their commands run on this machine)" })
      .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'no progress, tool lines or summary on stderr' })
      .group(['output-format', 'quiet', 'trace'], 'Output:')
      .group(['model', 'provider', 'max-iterations', 'var', 'approve', 'timeout', 'cache', 'trust-mcp'], 'Agent:')
      .group(['record', 'replay'], 'Record / replay:'),
  load: () => import('../../commands/run.js'),
};
