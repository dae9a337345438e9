import type { CommandDescriptor } from '../command-descriptor.js';

/** `agentlib doctor`: options only; the implementation (commands/doctor.ts) loads when it runs. */
export const doctorCommand: CommandDescriptor = {
  name: 'doctor',
  description: 'Check Node, the terminal, provider keys and reachability, optional backends and the agent file',
  examples: [
    ['$0 doctor', 'check everything (validates ./agent.yaml when present)'],
    ['$0 doctor --agent agents/support.yaml --timeout 2000', 'validate a given agent file, probe its providers for at most 2 s'],
    ['$0 doctor --offline --json', 'local checks only, as one JSON document'],
  ],
  builder: (yargs) =>
    yargs
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON document (checks, ok) instead of text' })
      .option('timeout', { type: 'number', default: 5000, describe: 'time limit of each network probe in ms (probes run in parallel)' })
      .option('agent', { type: 'string', describe: 'agent YAML file to validate (default: ./agent.yaml when present)' })
      .option('trust-mcp', { type: 'boolean', default: false, describe: "start the agent file's stdio MCP servers for the handshake (else only approved ones)" })
      .option('offline', { type: 'boolean', default: false, describe: 'skip network probes (providers, Redis, Postgres)' }),
  load: () => import('../../commands/doctor.js'),
};
