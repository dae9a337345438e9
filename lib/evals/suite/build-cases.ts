import type { Assertion, EvalCase, ScriptedApproval } from '../types.js';

/** One test as read from a suite or dataset, with where it starts (1-based). */
export interface TestRecord {
  values: Record<string, unknown>;
  line: number;
  col: number;
  /** `tests[3]`, `row 4`. */
  path: string;
  /** Problems were already reported for it: build nothing and report nothing more. */
  broken?: boolean;
}

/** Reports a problem with a record. */
export type RecordProblem = (record: TestRecord, message: string, hint?: string) => void;

const INPUT_VARS = ['input', 'prompt', 'question'] as const;

/** `{{ name }}` placeholders filled from vars; unknown names are collected. */
export function fillTemplate(text: string, vars: Readonly<Record<string, unknown>>, missing: string[]): string {
  return text.replace(/\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g, (whole, name: string) => {
    if (!Object.hasOwn(vars, name)) {
      missing.push(name);
      return whole;
    }
    const value = vars[name];
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

function assertionsOf(values: Record<string, unknown>): Assertion[] {
  const out: Assertion[] = [...((values['assert'] as Assertion[] | undefined) ?? [])];
  for (const [key, value] of Object.entries(values)) if (key.startsWith('expect') && Array.isArray(value)) out.push(...(value as Assertion[]));
  const rubric = values['rubric'];
  if (typeof rubric === 'string') out.push({ type: 'llm-rubric', negate: false, value: rubric, weight: 1 });
  return out;
}

function uniqueId(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base} (${n})`;
  taken.add(id);
  return id;
}

/**
 * Builds the cases from tests and `defaultTest`: vars, metadata and approvals merge (the test
 * wins), assert lists and tags concatenate, the rest falls back to the default. Every test needs
 * an input (`input`, else `vars.input` / `prompt` / `question`); `{{var}}` must name a var.
 */
export function buildCases(records: readonly TestRecord[], defaults: Record<string, unknown> | undefined, problem: RecordProblem): EvalCase[] {
  const base = defaults ?? {};
  const taken = new Set<string>();
  const cases: EvalCase[] = [];
  records.forEach((record, index) => {
    if (record.broken === true) return;
    const values = record.values;
    const pick = <T>(key: string): T | undefined => (values[key] ?? base[key]) as T | undefined;
    const vars = { ...(base['vars'] as Record<string, unknown> | undefined), ...(values['vars'] as Record<string, unknown> | undefined) };
    const rawInput = pick<string>('input') ?? INPUT_VARS.map((name) => vars[name]).find((v): v is string => typeof v === 'string');
    if (rawInput === undefined) {
      problem(record, `${record.path} has no input`, 'set "input", or vars.input');
      return;
    }
    const missing: string[] = [];
    const input = fillTemplate(rawInput, vars, missing);
    if (missing.length > 0) {
      problem(record, `${record.path} uses {{${missing[0] ?? ''}}} in its input but has no such var`, `vars: ${Object.keys(vars).join(', ') || '(none)'}`);
      return;
    }
    const name = (values['name'] ?? values['description']) as string | undefined;
    const evalCase: EvalCase = {
      id: uniqueId(name ?? `case-${index + 1}`, taken),
      input,
      vars,
      assert: [...assertionsOf(base), ...assertionsOf(values)],
      tags: [...new Set([...((base['tags'] as string[] | undefined) ?? []), ...((values['tags'] as string[] | undefined) ?? [])])],
      weight: pick<number>('weight') ?? 1,
      metadata: { ...(base['metadata'] as Record<string, unknown> | undefined), ...(values['metadata'] as Record<string, unknown> | undefined) },
    };
    const description = values['description'] as string | undefined;
    if (description !== undefined) evalCase.description = description;
    for (const key of ['threshold', 'reference', 'context', 'grader', 'skip'] as const) {
      const value = pick<never>(key);
      if (value !== undefined) (evalCase as unknown as Record<string, unknown>)[key] = value;
    }
    const approvals = { ...(base['approvals'] as Record<string, ScriptedApproval> | undefined), ...(values['approvals'] as Record<string, ScriptedApproval> | undefined) };
    if (Object.keys(approvals).length > 0) evalCase.approvals = approvals;
    if (typeof values['rubric'] === 'string' || typeof base['rubric'] === 'string') evalCase.rubric = pick<string>('rubric') as string;
    if (evalCase.assert.length === 0) {
      problem(record, `${record.path} has no assertions`, 'add "assert" or an expect_* key (a case without checks always passes)');
      return;
    }
    cases.push(evalCase);
  });
  return cases;
}
