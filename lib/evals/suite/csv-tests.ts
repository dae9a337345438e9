import type { ConfigIssue } from '../../core/errors/config-file-error.js';
import { closestMatch } from '../../core/suggest.js';
import { ASSERTION_TYPES, CHECKS, splitNegation } from '../checks/registry.js';
import type { Assertion } from '../types.js';
import type { TestRecord } from './build-cases.js';
import { parseCsv, type CsvCell } from './csv.js';

const SPECIAL = ['__expected', '__description', '__name', '__tags', '__threshold', '__weight', '__reference', '__context', '__rubric', '__metadata:<key>'];
const LIST_TYPES = new Set(['contains-any', 'contains-all', 'icontains-any', 'icontains-all', 'tool-sequence', 'tool-used', 'pii-leak', 'injection-resistance']);
const LIMIT_TYPES = new Set(['latency', 'cost', 'iterations']);
const NO_VALUE = new Set(['refusal', 'unique-tools', 'is-json', 'pii-leak', 'injection-resistance', 'tool-used']);

/** `contains: foo` → an assertion; a cell with no known `type:` prefix is `equals`. */
function cellAssertion(cell: CsvCell): Assertion | string {
  const text = cell.text.trim();
  const match = /^(not-)?([a-z][a-z-]*)(?::\s*([\s\S]*))?$/.exec(text);
  const at = `${cell.line}:${cell.col}`;
  if (match === null || !CHECKS.has(match[2] ?? '') || (match[3] === undefined && !NO_VALUE.has(match[2] ?? ''))) {
    const colon = /^([a-z][a-z-]*):/.exec(text);
    if (colon !== null && colon[1] !== undefined && !CHECKS.has(splitNegation(colon[1]).type)) {
      const close = closestMatch(colon[1], ASSERTION_TYPES);
      if (close !== undefined) return `unknown assertion type "${colon[1]}" — did you mean "${close}"?`;
    }
    return { type: 'equals', negate: false, value: cell.text, weight: 1, at };
  }
  const { type, negate } = splitNegation(`${match[1] ?? ''}${match[2] ?? ''}`);
  const raw = match[3]?.trim();
  const assertion: Assertion = { type, negate, weight: 1, at };
  if (raw !== undefined && raw !== '') {
    if (LIMIT_TYPES.has(type)) assertion.threshold = Number(raw);
    else if (type === 'length' || type === 'words') assertion.value = Number(raw);
    else if (LIST_TYPES.has(type)) assertion.value = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
    else if (type === 'is-json' || type === 'parsed' || type === 'tool-args-match' || type === 'step-count') {
      try {
        assertion.value = JSON.parse(raw) as unknown;
      } catch {
        return `assertion "${type}" needs JSON after the colon`;
      }
    } else assertion.value = raw;
  }
  const problem = CHECKS.get(type)?.validate(assertion);
  return problem === undefined ? assertion : `assertion "${text.split(':')[0] ?? type}" ${problem}`;
}

/**
 * Tests from CSV: a header row, then one test per row. Plain columns are vars (the input is
 * `input`, `prompt` or `question`); `__expected`, `__expected2`, … hold assertions written
 * `type: value` (no known type: `equals`); `__description`, `__name`, `__tags` (comma-separated),
 * `__threshold`, `__weight`, `__reference`, `__context`, `__rubric` and `__metadata:<key>` fill those fields.
 */
export function csvTestRecords(text: string, issues: ConfigIssue[]): TestRecord[] {
  const parsed = parseCsv(text);
  if (parsed.error !== undefined) {
    issues.push({ path: '', ...parsed.error });
    return [];
  }
  const [header, ...rows] = parsed.rows;
  if (header === undefined) {
    issues.push({ path: '', line: 1, col: 1, message: 'the CSV file is empty (it needs a header row)' });
    return [];
  }
  for (const cell of header) {
    const name = cell.text.trim();
    if (name.startsWith('__') && !/^__expected\d*$/.test(name) && !name.startsWith('__metadata:') && !SPECIAL.includes(name)) {
      issues.push({ path: name, line: cell.line, col: cell.col, message: `unknown column "${name}"`, ...(closestMatch(name, SPECIAL) === undefined ? {} : { suggestion: closestMatch(name, SPECIAL) as string }), hint: `special columns: ${SPECIAL.join(', ')}` });
    }
  }
  return rows.map((row, r) => {
    const issuesBefore = issues.length;
    const values: Record<string, unknown> = {};
    const vars: Record<string, unknown> = {};
    const assert: Assertion[] = [];
    const metadata: Record<string, unknown> = {};
    row.forEach((cell, c) => {
      const name = header[c]?.text.trim();
      if (name === undefined) {
        issues.push({ path: `row ${r + 2}`, line: cell.line, col: cell.col, message: `row ${r + 2} has more cells than the header` });
        return;
      }
      if (/^__expected\d*$/.test(name)) {
        if (cell.text.trim() === '') return;
        const got = cellAssertion(cell);
        if (typeof got === 'string') issues.push({ path: name, line: cell.line, col: cell.col, message: got });
        else assert.push(got);
      } else if (name.startsWith('__metadata:')) metadata[name.slice('__metadata:'.length)] = cell.text;
      else if (name === '__tags') values['tags'] = cell.text.split(',').map((t) => t.trim()).filter((t) => t !== '');
      else if (name === '__threshold' || name === '__weight') {
        const n = Number(cell.text);
        if (cell.text.trim() === '' ) return;
        if (!Number.isFinite(n) || n < 0 || (name === '__threshold' && n > 1)) issues.push({ path: name, line: cell.line, col: cell.col, message: `"${name}" must be a number${name === '__threshold' ? ' between 0 and 1' : ' ≥ 0'}; got ${JSON.stringify(cell.text)}` });
        else values[name.slice(2)] = n;
      } else if (name.startsWith('__')) {
        if (cell.text !== '') values[name.slice(2)] = cell.text;
      } else vars[name] = cell.text;
    });
    values['vars'] = vars;
    values['assert'] = assert;
    if (Object.keys(metadata).length > 0) values['metadata'] = metadata;
    const first = row[0] ?? { line: r + 2, col: 1 };
    return { values, line: first.line, col: 1, path: `row ${first.line}`, ...(issues.length > issuesBefore ? { broken: true } : {}) };
  });
}
