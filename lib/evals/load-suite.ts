import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { ConfigFileError, type ConfigIssue } from '../core/errors/config-file-error.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { deref } from '../config/read-context.js';
import { readMapping } from '../config/read-mapping.js';
import { DatasetLoader, recordsFromSequence } from './dataset-loader.js';
import { buildCases } from './suite/build-cases.js';
import { SUITE_FIELDS, SUITE_MAPPING_OPTIONS } from './suite/suite-fields.js';
import { byPosition, yamlContext } from './suite/yaml-context.js';
import type { EvaluateOptions, SuiteDefinition } from './types.js';

/** Options of {@link parseSuite} / {@link loadSuite}. */
export interface ParseSuiteOptions {
  /** Names the file in messages; its directory resolves relative paths. */
  source?: string;
  /** `${VAR}` values. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Default `evaluateOptions`. */
export const DEFAULT_EVALUATE_OPTIONS: EvaluateOptions = { maxConcurrency: 4, repeat: 1, timeoutMs: 0 };

/**
 * Parses and validates a suite (YAML or JSON) in the promptfoo vocabulary (`description`, `agent`,
 * `defaultTest`, `tests[]` with `vars`/`input` and `assert[]`, `threshold`, `evaluateOptions`) and/or
 * the spec's TestCase fields (`expect_tool`, `expect_contains`, …), into one model. Every problem is
 * reported at once (`file:line:col`, did-you-mean) as a {@link ConfigFileError}. `tests:` may name a
 * dataset file, loaded by {@link DatasetLoader} (its problems are reported against that file).
 */
export async function parseSuite(text: string, options: ParseSuiteOptions = {}): Promise<SuiteDefinition> {
  const source = options.source ?? 'suite.yaml';
  const baseDir = dirname(resolve(source));
  const env = options.env ?? process.env;
  const ctx = yamlContext(text, baseDir, env);
  if (ctx.issues.length > 0) throw new ConfigFileError(source, ctx.issues.sort(byPosition));
  const values = readMapping(ctx, ctx.doc.contents, '', SUITE_FIELDS, SUITE_MAPPING_OPTIONS);
  const issues: ConfigIssue[] = ctx.issues;
  if (values === undefined || issues.length > 0) throw new ConfigFileError(source, issues.sort(byPosition));
  const defaults = values['defaultTest'] as Record<string, unknown> | undefined;
  const tests = values['tests'] as Record<string, unknown>[] | string;
  let cases;
  if (typeof tests === 'string') {
    const datasetPath = isAbsolute(tests) ? tests : resolve(baseDir, tests);
    cases = await new DatasetLoader({ env, ...(defaults === undefined ? {} : { defaultTest: defaults }) }).load(datasetPath);
  } else {
    const root = deref(ctx, ctx.doc.contents);
    const testsNode = ctx.yaml.isMap(root) ? root.get('tests', true) : undefined;
    const records = recordsFromSequence(ctx, testsNode, 'tests');
    cases = buildCases(records, defaults, (record, message, hint) => {
      issues.push({ path: record.path, line: record.line, col: record.col, message, ...(hint === undefined ? {} : { hint }) });
    });
    if (issues.length > 0) throw new ConfigFileError(source, issues.sort(byPosition));
  }
  const suite: SuiteDefinition = {
    cases,
    options: { ...DEFAULT_EVALUATE_OPTIONS, ...(values['evaluateOptions'] as Partial<EvaluateOptions> | undefined) },
    metadata: (values['metadata'] as Record<string, unknown> | undefined) ?? {},
    source: resolve(source),
  };
  if (typeof values['description'] === 'string') suite.description = values['description'];
  if (typeof values['agent'] === 'string') suite.agent = resolve(baseDir, values['agent']);
  if (typeof values['grader'] === 'string') suite.grader = values['grader'];
  if (typeof values['threshold'] === 'number') suite.threshold = values['threshold'];
  return suite;
}

/** Reads and validates a suite file (see {@link parseSuite}). */
export async function loadSuite(path: string, options: Omit<ParseSuiteOptions, 'source'> = {}): Promise<SuiteDefinition> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigurationError(`cannot read eval suite "${path}": ${(error as Error).message}`, { cause: error });
  }
  return parseSuite(text, { ...options, source: path });
}
