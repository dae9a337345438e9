import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isPlainObject } from '../../core/json.js';
import { importModule } from '../../tools/import-module.js';
import type { CheckContext, CheckOutcome } from '../types.js';
import { outcome, type CheckDefinition } from './check-definition.js';

/** What a custom check may return: a boolean, a score in [0, 1], or `{ pass, score?, reason? }`. */
export type CustomCheckReturn = boolean | number | { pass: boolean; score?: number; reason?: string };

/** A custom check function: gets the answer text and the context (case, result, trace). */
export type CustomCheckFunction = (output: string, context: CheckContext) => CustomCheckReturn | Promise<CustomCheckReturn>;

function compileInline(source: string): CustomCheckFunction {
  const body = /\breturn\b/.test(source) ? source : `return (${source});`;
  // Suite files are code the user runs, like tool modules: an inline check is a function body.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('output', 'context', body) as CustomCheckFunction;
}

/** `file://checks.ts:name` → the module path and export name (default `default`). */
function fileRef(value: string, baseDir: string): { path: string; name: string } {
  const rest = value.slice('file://'.length);
  const colon = rest.lastIndexOf(':');
  const hasName = colon > 1 && !/^[A-Za-z]:[\\/]/.test(rest.slice(colon - 1));
  const file = hasName ? rest.slice(0, colon) : rest;
  return { path: isAbsolute(file) ? file : resolve(baseDir, file), name: hasName ? rest.slice(colon + 1) : 'default' };
}

function toOutcome(value: unknown, threshold: number): CheckOutcome {
  if (typeof value === 'boolean') return outcome(value, value ? 'custom check passed' : 'custom check failed');
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1) {
    return { pass: value >= threshold, score: value, reason: `custom score ${value} (threshold ${threshold})` };
  }
  if (isPlainObject(value) && typeof value['pass'] === 'boolean') {
    const score = typeof value['score'] === 'number' ? value['score'] : value['pass'] ? 1 : 0;
    return { pass: value['pass'], score: Math.min(1, Math.max(0, score)), reason: typeof value['reason'] === 'string' ? value['reason'] : `custom check ${value['pass'] ? 'passed' : 'failed'}` };
  }
  return outcome(false, `custom check returned ${JSON.stringify(value) ?? String(value)}; expected true/false, a score in [0, 1] or { pass, score?, reason? }`);
}

/** `javascript`: an inline expression / function body over `output` and `context`, or `file://module.ts:export`. */
export const CUSTOM_CHECK: CheckDefinition = {
  type: 'javascript',
  description: 'a JavaScript expression or function body over `output` and `context`, or `file://checks.ts:name` (returns a boolean, a score in [0, 1], or { pass, score?, reason? })',
  kind: 'deterministic',
  validate: (a) => {
    if (typeof a.value !== 'string' || a.value.trim() === '') return 'needs a "value": an expression, a function body, or file://path:export';
    if (a.value.startsWith('file://')) return undefined;
    try {
      compileInline(a.value);
      return undefined;
    } catch (error) {
      return `does not compile: ${(error as Error).message}`;
    }
  },
  run: async (assertion, ctx) => {
    const source = String(assertion.value);
    let fn: unknown;
    if (source.startsWith('file://')) {
      const ref = fileRef(source, ctx.baseDir);
      const module = (await importModule(pathToFileURL(ref.path).href)) as Record<string, unknown>;
      fn = module[ref.name];
      if (typeof fn !== 'function') return outcome(false, `${ref.path} exports no function "${ref.name}"`);
    } else {
      fn = compileInline(source);
    }
    try {
      return toOutcome(await (fn as CustomCheckFunction)(ctx.output, ctx), assertion.threshold ?? 0.5);
    } catch (error) {
      return outcome(false, `custom check threw: ${(error as Error).message}`);
    }
  },
};
