import type { CommandDescriptor } from '../command-descriptor.js';

/** `agentlib guard check`: options only; the implementation (commands/guard.ts) loads when it runs. */
export const guardCommand: CommandDescriptor = {
  name: 'guard',
  positionals: '<action> [file]',
  description: 'Run the PII and prompt-injection detectors on a text (for tuning them)',
  examples: [
    ['$0 guard check --pii --injection < examples/safety/tool-output.txt', 'every finding with its kind and position'],
    ['$0 guard check examples/safety/tool-output.txt --injection --pattern "call \\+44" --json', 'one JSON document, with an extra pattern'],
  ],
  builder: (yargs) =>
    yargs
      .positional('action', { type: 'string', describe: 'check' })
      .positional('file', { type: 'string', describe: 'file to read (default: stdin)' })
      .option('pii', { type: 'boolean', default: false, describe: 'detect personal data (email, phone, ssn, credit_card, ipv4, ipv6, iban)' })
      .option('injection', { type: 'boolean', default: false, describe: 'screen for prompt injection (the 15 built-in patterns)' })
      .option('entities', { type: 'string', array: true, describe: 'PII kinds to detect (default all)' })
      .option('pattern', { type: 'string', array: true, describe: 'extra injection pattern (regular expression, case-insensitive)' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON document (findings, redacted text, screened text)' }),
  load: () => import('../../commands/guard.js'),
};
