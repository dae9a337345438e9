import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { EvalReport } from '../../lib/evals/eval-report.js';
import { UsageError } from '../../cli/usage-error.js';

/** A report format, chosen by the output file's extension. */
export type ReportFormat = 'json' | 'jsonl' | 'markdown' | 'html' | 'junit';

/** The format of `-o path` by its extension; a UsageError for any other. */
export function reportFormat(path: string): ReportFormat {
  const lower = path.toLowerCase();
  if (lower.endsWith('.junit.xml') || lower.endsWith('.xml')) return 'junit';
  if (lower.endsWith('.jsonl')) return 'jsonl';
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.md') || lower.endsWith('.markdown')) return 'markdown';
  if (lower.endsWith('.html') || lower.endsWith('.htm')) return 'html';
  throw new UsageError(`-o ${path}: unknown report format; use .json, .jsonl, .md, .html or .junit.xml`);
}

/** The report rendered in `format`. JSONL is a header line, then one case per line. */
export function renderReport(report: EvalReport, format: ReportFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(report.toJSON(), null, 2)}\n`;
    case 'jsonl': {
      const { cases, ...header } = report.toJSON();
      return `${[JSON.stringify(header), ...cases.map((c) => JSON.stringify({ type: 'eval-case', ...c }))].join('\n')}\n`;
    }
    case 'markdown':
      return report.toMarkdown();
    case 'html':
      return report.toHtml();
    case 'junit':
      return report.toJUnit();
  }
}

/** Writes the report to every `-o` path (directories created); returns the paths written. */
export async function writeReports(report: EvalReport, outputs: readonly string[], cwd: string): Promise<string[]> {
  const written: string[] = [];
  for (const output of outputs) {
    const path = resolve(cwd, output);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, renderReport(report, reportFormat(output)), 'utf8');
    written.push(output);
  }
  return written;
}
