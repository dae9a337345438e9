import type * as Yaml from 'yaml';

/** A YAML syntax error, placed on the line a person has to fix. */
export interface YamlSyntaxProblem {
  /** Offset in the text (0-based) of the offending spot. */
  offset: number;
  /** One line, without the parser's own "at line N, column M". */
  message: string;
}

const OVER_INDENTED =
  'bad indentation: this line is indented deeper than the key above it, so it would continue that key\'s plain value; line it up with the keys it belongs to';

/** Offset of the first non-blank character of the line that starts at `start`. */
function firstNonBlank(text: string, start: number): number {
  let at = start;
  while (text[at] === ' ' || text[at] === '\t') at += 1;
  return at;
}

/**
 * The first non-blank character of the first line with content (not blank, not only a comment)
 * from the line starting at `lineStart` on, when it lies before `end`; undefined otherwise.
 */
function firstContent(text: string, lineStart: number, end: number): number | undefined {
  let line = lineStart;
  while (line < end && line < text.length) {
    const at = firstNonBlank(text, line);
    if (at < text.length && text[at] !== '\n' && text[at] !== '\r' && text[at] !== '#') return at < end ? at : undefined;
    const next = text.indexOf('\n', at);
    if (next === -1) return undefined;
    line = next + 1;
  }
  return undefined;
}

/**
 * Turns the `yaml` package's errors into problems positioned where the fix is. An over-indented
 * line (`max_retries: 2` followed by a deeper `base_delay_ms: 1`) is reported by the parser at the
 * value on the line above, as an implicit key spanning two lines; it is moved to the over-indented
 * line itself (its first character). A mapping item that starts left of (or, after a comment, right of)
 * its siblings is placed on its key instead of column 1 of the line (or blank line) before it. Other errors keep their position.
 */
export function yamlSyntaxProblems(errors: readonly Yaml.YAMLError[], text: string): YamlSyntaxProblem[] {
  const multiline = new Set(errors.filter((error) => error.code === 'MULTILINE_IMPLICIT_KEY').map((error) => error.pos[0]));
  const problems: YamlSyntaxProblem[] = [];
  for (const error of errors) {
    const message = (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, '');
    const [start, end] = error.pos;
    let problem: YamlSyntaxProblem = { offset: start, message };
    if (error.code === 'BLOCK_AS_IMPLICIT_KEY' && multiline.has(start)) continue;
    if (error.code === 'MULTILINE_IMPLICIT_KEY') {
      const newline = text.indexOf('\n', start);
      const line = newline === -1 ? undefined : firstContent(text, newline + 1, end);
      if (line !== undefined) problem = { offset: line, message: OVER_INDENTED };
    } else if (error.code === 'BAD_INDENT') {
      const line = firstContent(text, text.lastIndexOf('\n', start - 1) + 1, text.length);
      problem = { offset: line ?? start, message: /indent/i.test(message) ? message : `bad indentation: ${message}` };
    }
    if (!problems.some((seen) => seen.offset === problem.offset && seen.message === problem.message)) problems.push(problem);
  }
  return problems;
}
