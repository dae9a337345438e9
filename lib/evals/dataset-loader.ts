import { readFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { ConfigFileError, type ConfigIssue } from '../core/errors/config-file-error.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { childPath, deref, report, type ReadContext } from '../config/read-context.js';
import { buildCases, type TestRecord } from './suite/build-cases.js';
import { csvTestRecords } from './suite/csv-tests.js';
import { testReader } from './suite/test-fields.js';
import { byPosition, nodePosition, yamlContext } from './suite/yaml-context.js';
import type { EvalCase } from './types.js';

/** Options of {@link DatasetLoader}. */
export interface DatasetLoaderOptions {
  /** `${VAR}` values. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Keys merged into every test (a suite's `defaultTest`). */
  defaultTest?: Record<string, unknown>;
}

/** Reads test records from the items of a YAML/JSON sequence node. */
export function recordsFromSequence(ctx: ReadContext, node: unknown, path: string): TestRecord[] {
  const target = deref(ctx, node);
  if (!ctx.yaml.isSeq(target)) {
    report(ctx, node, path, `"${path || 'the document'}" must be a list of tests`);
    return [];
  }
  const records: TestRecord[] = [];
  target.items.forEach((item, i) => {
    const itemPath = childPath(path, i);
    const before = ctx.issues.length;
    const values = testReader(ctx, item, itemPath);
    if (values !== undefined) records.push({ values, ...nodePosition(ctx, item), path: itemPath, ...(ctx.issues.length > before ? { broken: true } : {}) });
  });
  return records;
}

/** JSONL as a YAML flow sequence on the same lines: `[` on a line of its own, a comma after each object. */
function jsonlAsYaml(text: string): string {
  const lines = text.split(/\r?\n/).map((line) => (line.trim() === '' ? '' : `${line},`));
  return `[\n${lines.join('\n')}\n]`;
}

/**
 * Loads test cases from a dataset file: YAML or JSON (a list of tests, or a mapping with `tests:`),
 * JSONL (one test per line) or CSV (`__expected` columns). Tests use the suite vocabulary (both
 * forms). Validation is strict and complete: every problem in the file is reported at once as a
 * {@link ConfigFileError} with `file:line:col` positions and did-you-mean suggestions.
 */
export class DatasetLoader {
  readonly #options: DatasetLoaderOptions;

  constructor(options: DatasetLoaderOptions = {}) {
    this.#options = options;
  }

  /** Loads and validates `path`. */
  async load(path: string): Promise<EvalCase[]> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new ConfigurationError(`cannot read dataset "${path}": ${(error as Error).message}`, { cause: error });
    }
    return this.parse(text, path);
  }

  /** Parses dataset text; `source` names the file (its extension picks the format). */
  parse(text: string, source: string): EvalCase[] {
    const ext = extname(source).toLowerCase();
    const env = this.#options.env ?? process.env;
    const baseDir = dirname(resolve(source));
    let records: TestRecord[];
    let issues: ConfigIssue[];
    if (ext === '.csv') {
      issues = [];
      records = csvTestRecords(text, issues);
    } else if (ext === '.jsonl' || ext === '.ndjson') {
      const ctx = yamlContext(jsonlAsYaml(text), baseDir, env);
      records = ctx.issues.length > 0 ? [] : recordsFromSequence(ctx, ctx.doc.contents, '').map((r) => ({ ...r, line: r.line - 1, path: `line ${r.line - 1}` }));
      const lineOf = (_: string, i: string): string => `line ${Number(i) + 1}`;
      issues = ctx.issues.map((issue) => ({ ...issue, line: Math.max(1, issue.line - 1), path: issue.path.replace(/^\[(\d+)\]/, lineOf), message: issue.message.replace(/"\[(\d+)\]/g, (_, i: string) => `"${lineOf(_, i)}`) }));
    } else if (ext === '.yaml' || ext === '.yml' || ext === '.json') {
      const ctx = yamlContext(text, baseDir, env);
      records = [];
      if (ctx.issues.length === 0) {
        const root = deref(ctx, ctx.doc.contents);
        const tests = ctx.yaml.isMap(root) ? root.get('tests', true) : root;
        records = recordsFromSequence(ctx, tests, ctx.yaml.isMap(root) ? 'tests' : '');
      }
      issues = ctx.issues;
    } else {
      throw new ConfigurationError(`dataset "${source}": unknown format "${ext || '(no extension)'}"; use .yaml, .yml, .json, .jsonl or .csv`);
    }
    const cases = buildCases(records, this.#options.defaultTest, (record, message, hint) => {
      issues.push({ path: record.path, line: record.line, col: record.col, message, ...(hint === undefined ? {} : { hint }) });
    });
    if (issues.length > 0) throw new ConfigFileError(source, [...issues].sort(byPosition));
    return cases;
  }
}
