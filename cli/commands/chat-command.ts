import type { CommandDescriptor } from '../command-descriptor.js';

/** `agentlib chat`: options only; the implementation (commands/chat.ts) and Ink load when it runs. */
export const chatCommand: CommandDescriptor = {
  name: 'chat',
  positionals: '<agent>',
  description: 'Chat with an agent (YAML file or template name) in the terminal',
  examples: [
    ['$0 chat agent.yaml', 'chat with an agent; review-gated tools ask for approval'],
    ['$0 chat customer_support --model gpt-4o', 'chat with a bundled template on another model'],
    ['$0 chat agent.yaml --session alice', 'continue the saved conversation "alice" (/sessions lists, /session <id> switches)'],
    ['$0 chat examples/calculator/agent.yaml --replay examples/calculator/cassette.jsonl', 'chat offline from a recorded cassette'],
  ],
  builder: (yargs) =>
    yargs
      .positional('agent', { type: 'string', describe: 'agent YAML file, or a template name (customer_support, data_analyst, …)' })
      .option('model', { alias: 'm', type: 'string', describe: "override the file's model (switch later with /model)" })
      .option('provider', { alias: 'p', type: 'string', describe: "override the file's provider (openai, anthropic, gemini, ollama)" })
      .option('trust-mcp', { type: 'boolean', default: false, describe: "spawn the agent file's stdio MCP servers without asking (their commands run on this machine)" })
      .option('var', { type: 'string', array: true, describe: 'set a ${variable} for the YAML and the tools: --var key=value (repeatable)' })
      .option('approve', { type: 'string', describe: 'answer tool approvals: ask (default: in the chat), all, none, or a policy YAML' })
      .option('timeout', { type: 'number', describe: 'seconds without a byte from the provider before a call fails and is retried: the wait for the first byte and between stream chunks (default 60; 0: none)' })
      .option('session', { type: 'string', describe: "continue (or start) a saved session: the file's session: store, default SQLite .agentlib/agentlib.db" })
      .option('record', { type: 'string', describe: 'record every provider call to this cassette (JSONL)' })
      .option('replay', { type: 'string', describe: 'answer provider calls from this cassette (no network)' })
      .option('cache', { type: 'boolean', describe: "--no-cache: ignore the agent file's cache: (chat streams its replies, which bypass caches, so there is no --cache)" })
      .option('trace-store', { type: 'string', describe: "where each turn's trace is saved when the turn ends: sqlite://[file.db] (default .agentlib/agentlib.db), file://dir (one .jsonl per run); read them with agentlib trace ls --store <url>. --no-trace-store: keep none" })
      .option('trace', { type: 'boolean', default: true, describe: '--no-trace: keep no traces (same as --no-trace-store)' })
      .group(['model', 'provider', 'var', 'approve', 'session', 'timeout', 'trace-store', 'trace', 'cache', 'trust-mcp'], 'Agent:')
      .group(['record', 'replay'], 'Record / replay:'),
  load: () => import('../../commands/chat.js'),
};
