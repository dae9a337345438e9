import { list, plain, record } from '../../config/read-collections.js';
import { deref, report } from '../../config/read-context.js';
import { group, type MappingOptions } from '../../config/read-mapping.js';
import { num, str, type FieldTable, type Reader } from '../../config/readers.js';
import { testReader } from './test-fields.js';

/** `tests:` is a list of tests, or the path of a dataset file (YAML, JSON, JSONL, CSV). */
const testsReader: Reader<Record<string, unknown>[] | string> = (ctx, node, path) => {
  const target = deref(ctx, node);
  if (ctx.yaml.isScalar(target)) {
    const file = str({ nonEmpty: true })(ctx, node, path);
    return file?.replace(/^file:\/\//, '');
  }
  return list(testReader)(ctx, node, path);
};

/** `evaluateOptions`. */
export const EVALUATE_OPTION_FIELDS: FieldTable = {
  maxConcurrency: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', description: 'cases run at once', default: '4' },
  repeat: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', description: 'runs per case; a case passes only if every run passes (pass^k)', default: '1' },
  timeoutMs: { read: num({ integer: true, min: 0 }), type: 'integer ≥ 0', description: 'per-run timeout in ms (0: none)', default: '0' },
};

/** The top-level keys of a suite file. */
export const SUITE_FIELDS: FieldTable = {
  description: { read: str(), type: 'string', description: "the suite's name in reports" },
  agent: { read: str({ nonEmpty: true }), type: 'path', description: 'the agent YAML, relative to the suite file' },
  grader: { read: str({ nonEmpty: true }), type: 'provider:model', description: 'the default judge for LLM-judge assertions' },
  threshold: { read: num({ min: 0, max: 1 }), type: 'number 0..1', description: 'minimum accuracy for the suite to pass (like --fail-under)' },
  metadata: { read: record(plain), type: 'mapping', description: 'free-form' },
  defaultTest: { read: testReader, type: 'mapping', description: 'keys merged into every test (assert lists are concatenated)' },
  tests: { read: testsReader, type: 'list or path', description: 'the test cases, or a dataset file', required: true },
  evaluateOptions: { read: group(EVALUATE_OPTION_FIELDS), type: 'mapping', description: 'maxConcurrency, repeat, timeoutMs', fields: EVALUATE_OPTION_FIELDS },
};

/** promptfoo keys a suite cannot use: an agentlib suite runs one agent. */
export const SUITE_MAPPING_OPTIONS: MappingOptions = {
  refuse: (key) =>
    key === 'prompts' || key === 'providers'
      ? { message: `"${key}" is not used by agentlib suites: the cases run the agent named by "agent"`, hint: 'write agent: path/to/agent.yaml and put the prompt in each test\'s input' }
      : undefined,
};

/** Reports a missing input at the test node. */
export function reportNoInput(ctx: Parameters<Reader>[0], node: unknown, path: string): void {
  report(ctx, node, path, `test ${path} has no input`, { hint: 'set "input", or vars.input' });
}
