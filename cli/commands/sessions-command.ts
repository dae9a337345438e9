import type { CommandDescriptor } from '../command-descriptor.js';

/** `agentlib sessions`: options only; the implementation (commands/sessions.ts) loads when it runs. */
export const sessionsCommand: CommandDescriptor = {
  name: 'sessions',
  positionals: '<action> [ids..]',
  description: 'Manage saved conversations: ls, show, rm, branch, export',
  examples: [
    ['$0 sessions ls --agent agent.yaml', "the sessions of an agent (its session: store and namespace), newest first; then show <id>, rm <id..>, branch <id> <new>, export <id> -o file.json"],
  ],
  builder: (yargs) =>
    yargs
      .example('$0 sessions ls --json', 'the sessions of the default store (sqlite://.agentlib/agentlib.db, namespace default) as JSON')
      .positional('action', { type: 'string', describe: 'ls (list), show (one conversation), rm (delete), branch (copy <source> <new>), export (JSON)' })
      .positional('ids', { type: 'string', array: true, describe: 'session ids: one for show/export, one or more for rm, two for branch' })
      .option('agent', { type: 'string', describe: "take the store and namespace from this agent YAML's session: (namespace: the agent's name)" })
      .option('store', { type: 'string', describe: 'store URL: sqlite://[path], redis://host:port, file://dir, memory:// (default: sqlite://, the .agentlib/agentlib.db file)' })
      .option('namespace', { type: 'string', describe: "the sessions' namespace (default: the agent's with --agent, else default)" })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON document (ls, show, rm, branch)' })
      .option('output', { alias: 'o', type: 'string', describe: 'export: write the JSON to this file instead of stdout' })
      .option('var', { type: 'string', array: true, describe: 'with --agent: set a ${variable} of the YAML: --var key=value' })
      .group(['agent', 'store', 'namespace'], 'Store:')
      .group(['json', 'output'], 'Output:'),
  load: () => import('../../commands/sessions.js'),
};
