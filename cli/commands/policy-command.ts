import type { CommandDescriptor } from '../command-descriptor.js';

/** `agentlib policy test`: options only; the implementation (commands/policy.ts) loads when it runs. */
export const policyCommand: CommandDescriptor = {
  name: 'policy',
  positionals: '<action> <file>',
  description: 'Try a tool policy file: the decision for one tool call and the rule that made it',
  examples: [
    ['$0 policy test examples/safety/policy.yaml --tool delete_file --args \'{"path":"/etc/passwd"}\'', 'deny, review or allow, and which rule decided'],
    ['$0 policy test examples/safety/policy.yaml --tool read_file --requires-approval --json', 'the decision as one JSON document'],
  ],
  builder: (yargs) =>
    yargs
      .positional('action', { type: 'string', describe: 'test' })
      .positional('file', { type: 'string', describe: 'tool policy YAML file (allow, review, deny, deny_when)' })
      .option('tool', { type: 'string', demandOption: true, describe: 'tool name of the call' })
      .option('args', { type: 'string', default: '{}', describe: 'arguments of the call, as a JSON object' })
      .option('requires-approval', { type: 'boolean', default: false, describe: 'the tool is defined with requiresApproval (raises allow to review)' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON document (decision, reason, rule)' }),
  load: () => import('../../commands/policy.js'),
};
