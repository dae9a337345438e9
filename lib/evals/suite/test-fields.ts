import { list, plain, record } from '../../config/read-collections.js';
import { report } from '../../config/read-context.js';
import { readMapping } from '../../config/read-mapping.js';
import { bool, num, str, type FieldTable, type Reader } from '../../config/readers.js';
import { isPlainObject } from '../../core/json.js';
import type { ScriptedApproval } from '../types.js';
import { assertionReader } from './assertion-reader.js';
import { EXPECT_FIELDS } from './expect-fields.js';

/** `approve`, `deny`, or `{ approve: false, feedback }`, per tool name. */
const approvalReader: Reader<ScriptedApproval> = (ctx, node, path) => {
  const value = plain(ctx, node, path);
  if (value === 'approve' || value === true) return { approved: true };
  if (value === 'deny' || value === false) return { approved: false };
  if (isPlainObject(value) && typeof value['approve'] === 'boolean' && Object.keys(value).every((k) => k === 'approve' || k === 'feedback') && (value['feedback'] === undefined || typeof value['feedback'] === 'string')) {
    return { approved: value['approve'], ...(typeof value['feedback'] === 'string' ? { feedback: value['feedback'] } : {}) };
  }
  if (value !== undefined) report(ctx, node, path, `"${path}" must be approve, deny, or { approve: false, feedback: "…" }`);
  return undefined;
};

/** The keys of one test (promptfoo's and the spec's), also the keys of `defaultTest`. */
export const TEST_FIELDS: FieldTable = {
  description: { read: str({ nonEmpty: true }), type: 'string', description: 'what the case checks; also its id' },
  name: { read: str({ nonEmpty: true }), type: 'string', description: "the case's id (default: description, else case-<n>)" },
  input: { read: str(), type: 'string', description: 'the prompt; `{{var}}` takes a value from vars (default: vars.input / prompt / question)' },
  vars: { read: record(plain), type: 'mapping', description: 'values for `{{var}}` in the input; also passed to tools as context' },
  assert: { read: list(assertionReader), type: 'list', description: 'the assertions (type, value, threshold, weight, metric, grader)' },
  threshold: { read: num({ min: 0, max: 1 }), type: 'number 0..1', description: 'the case passes when its weighted score reaches this (default: every assertion must pass)' },
  weight: { read: num({ min: 0 }), type: 'number ≥ 0', description: "the case's weight in the suite's accuracy", default: '1' },
  metadata: { read: record(plain), type: 'mapping', description: 'free-form; filtered with --filter-metadata key=value' },
  tags: { read: list(str({ nonEmpty: true })), type: 'list of strings', description: 'filtered with --filter-tag' },
  grader: { read: str({ nonEmpty: true }), type: 'provider:model', description: 'the judge for this case' },
  reference: { read: str(), type: 'string', description: 'the expected answer, for `correctness`' },
  context: { read: str(), type: 'string', description: 'source material, for `faithfulness` and `hallucination`' },
  rubric: { read: str({ nonEmpty: true }), type: 'string', description: 'adds an `llm-rubric` assertion with this rubric' },
  approvals: { read: record(approvalReader), type: 'mapping', description: 'scripted answers to tool approvals: tool name (or *) → approve | deny | { approve, feedback }; others are denied' },
  skip: { read: bool(), type: 'boolean', description: 'report the case as skipped without running it' },
  ...EXPECT_FIELDS,
};

/** Reads one test mapping. */
export const testReader: Reader<Record<string, unknown>> = (ctx, node, path) => readMapping(ctx, node, path, TEST_FIELDS);
