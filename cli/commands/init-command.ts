import type { CommandDescriptor } from '../command-descriptor.js';

/** `agentlib init`: options only; the implementation (commands/init.ts) loads when it runs. */
export const initCommand: CommandDescriptor = {
  name: 'init',
  positionals: '[dir]',
  description: 'Create an agent: agent.yaml from a template and a tools.ts you own',
  examples: [
    ['$0 init', 'ask for the template, name, provider and model, then write ./agent.yaml and ./tools.ts'],
    ['$0 init support-bot --template customer_support --provider anthropic --yes', 'no questions: a customer support agent on Claude in ./support-bot'],
    ['$0 init --yes --json', 'the blank template with the defaults; print the written files as JSON'],
  ],
  builder: (yargs) =>
    yargs
      .positional('dir', { type: 'string', describe: 'the directory to write to (created when missing; default: the current directory)' })
      .option('template', { alias: 't', type: 'string', describe: 'blank, or a bundled template: code_reviewer, customer_support, data_analyst, rag_chatbot, research_assistant, research_graph (a multi-agent graph)' })
      .option('name', { alias: 'n', type: 'string', describe: "the agent's name (default: the template's)" })
      .option('provider', { alias: 'p', type: 'string', describe: 'openai, anthropic, gemini or ollama (default openai)' })
      .option('model', { alias: 'm', type: 'string', describe: "the model id (default: the provider's default model)" })
      .option('yes', { alias: 'y', type: 'boolean', default: false, describe: 'ask nothing: use the flags and the defaults' })
      .option('force', { alias: 'f', type: 'boolean', default: false, describe: 'overwrite files that exist' })
      .option('json', { type: 'boolean', default: false, describe: 'print the written files, template, provider and model as one JSON document' })
      .group(['template', 'name', 'provider', 'model'], 'Agent:')
      .group(['yes', 'force', 'json'], 'Behaviour:'),
  load: () => import('../../commands/init.js'),
};
