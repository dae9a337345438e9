/**
 * Code reviewer tools: read, search and list files under one root directory, never outside it.
 * The root is `context.root` (from `run(input, { context: { root } })`), else `AGENTLIB_CODE_ROOT`,
 * else the current directory. Paths are resolved with realpath, so `..`, absolute paths and symlinks
 * that leave the root are refused; `node_modules` and VCS folders are skipped; binary files are
 * refused and large files cut.
 */
import { closeSync, lstatSync, openSync, readSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tool, z } from 'agentlib';
import { globToRegExp } from 'agentlib/rag';
import { contextString, envString } from '../_shared/context.js';
import { isInside, looksBinary, PathRefusedError, resolveInside, resolveRoot, toPosix } from '../_shared/confine-path.js';

/** Bytes of a file read_file returns at most. */
export const MAX_READ_BYTES = 200_000;
/** Bytes of each file search_files scans at most. */
export const MAX_SEARCH_FILE_BYTES = 1_000_000;
/** Files a search or listing walks at most. */
export const MAX_WALK_FILES = 20_000;
/** Directory names never entered. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['node_modules', '.git', '.hg', '.svn', '.agentlib']);

/** The confined root for a tool call: `context.root`, else AGENTLIB_CODE_ROOT, else the current directory (as a real path). */
export function codeRoot(context: unknown): string {
  return resolveRoot(contextString(context, 'root') ?? envString('AGENTLIB_CODE_ROOT') ?? process.cwd());
}

function readHead(path: string, limit: number): { bytes: Buffer; size: number } {
  const size = statSync(path).size;
  const fd = openSync(path, 'r');
  try {
    const bytes = Buffer.alloc(Math.min(size, limit));
    let offset = 0;
    while (offset < bytes.length) {
      const read = readSync(fd, bytes, offset, bytes.length - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    return { bytes: bytes.subarray(0, offset), size };
  } finally {
    closeSync(fd);
  }
}

/** A UTF-8 decode that stops before a multi-byte character cut at the end of a truncated read. */
function decodeHead(bytes: Buffer, truncated: boolean): string {
  const text = bytes.toString('utf8');
  return truncated ? text.replace(/\uFFFD$/, '') : text;
}

interface WalkEntry {
  /** Real path. */
  real: string;
  /** Path relative to the root, `/`-separated. */
  relative: string;
}

/**
 * Files under `start` (a real path inside `root`), depth first in name order. Skips SKIPPED_DIRS,
 * never follows directory symlinks, and keeps a symlinked file only when its target is inside the root.
 */
function* walkFiles(root: string, start: string, signal: AbortSignal): Generator<WalkEntry> {
  const stack: string[] = [start];
  let seen = 0;
  while (stack.length > 0) {
    if (signal.aborted) return;
    const dir = stack.pop() ?? start;
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue;
    }
    const subdirs: string[] = [];
    for (const name of names) {
      const path = join(dir, name);
      let stat;
      try {
        stat = lstatSync(path);
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        if (!SKIPPED_DIRS.has(name)) subdirs.push(path);
        continue;
      }
      let real = path;
      if (stat.isSymbolicLink()) {
        try {
          real = realpathSync(path);
          if (!isInside(root, real) || !statSync(real).isFile()) continue;
        } catch {
          continue;
        }
      } else if (!stat.isFile()) continue;
      seen += 1;
      if (seen > MAX_WALK_FILES) return;
      yield { real, relative: toPosix(relative(root, path)) };
    }
    for (const sub of subdirs.reverse()) stack.push(sub);
  }
}

const readFileParams = z.object({
  path: z.string().min(1).describe('File path relative to the project root, e.g. "src/index.ts"'),
  start_line: z.number().int().min(1).optional().describe('First line to return (1-based). Default 1'),
  end_line: z.number().int().min(1).optional().describe('Last line to return (inclusive). Default: end of file'),
});

/** Reads a text file under the root, with line numbers; binary files are refused, files over 200 kB cut. */
export const readFile = tool({
  name: 'read_file',
  description:
    'Read a text file of the project under review. The path is relative to the project root. Returns the ' +
    'content with line numbers ("12| code"); use start_line/end_line for a part of a large file. Files over ' +
    '200 kB are truncated, binary files are refused.',
  parameters: readFileParams,
  execute: ({ path, start_line, end_line }, ctx) => {
    const root = codeRoot(ctx.context);
    const target = resolveInside(root, path);
    if (!statSync(target.real).isFile()) throw new PathRefusedError(`not a file: ${path} (use list_files for directories)`);
    const { bytes, size } = readHead(target.real, MAX_READ_BYTES);
    if (looksBinary(bytes)) throw new PathRefusedError(`binary file refused: ${target.relative} (${size} bytes)`);
    const truncated = size > bytes.length;
    const lines = decodeHead(bytes, truncated).split(/\r?\n/);
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    const first = start_line ?? 1;
    const last = Math.min(end_line ?? lines.length, lines.length);
    if (first > lines.length && lines.length > 0) throw new Error(`start_line ${first} is past the end of ${target.relative} (${lines.length} lines)`);
    const width = String(last).length;
    const body = lines
      .slice(first - 1, last)
      .map((line, index) => `${String(first + index).padStart(width)}| ${line}`)
      .join('\n');
    const header = `${target.relative} (${size} bytes, ${truncated ? `first ${lines.length}` : lines.length} lines${first > 1 || last < lines.length ? `, showing ${first}-${last}` : ''})`;
    const marker = truncated ? `\n[... truncated: file is ${size} bytes, only the first ${MAX_READ_BYTES} bytes were read ...]` : '';
    return `${header}\n${body}${marker}`;
  },
});

const searchParams = z.object({
  pattern: z.string().min(1).max(500).describe('Text to find; a JavaScript regular expression when regex is true'),
  regex: z.boolean().default(false).describe('Treat pattern as a regular expression. Default false (literal text)'),
  case_sensitive: z.boolean().default(false).describe('Match case. Default false'),
  path: z.string().default('.').describe('Directory (relative to the root) to search in. Default: the whole project'),
  glob: z.string().max(200).optional().describe('Only files whose path matches this glob, e.g. "*.ts" or "src/**/*.py"'),
  max_results: z.number().int().min(1).max(200).default(50).describe('Maximum matches to return (1-200). Default 50'),
});

/** Refuses regular expressions with nested quantifiers such as `(a+)+`, the usual catastrophic-backtracking shape. */
export function assertSafeRegex(pattern: string): void {
  if (/\((?:[^()\\]|\\.)*[+*}](?:\?)?\)[+*{]/.test(pattern) || /\\\d/.test(pattern)) {
    throw new Error('regular expression refused: nested quantifiers or backreferences can take exponential time; simplify the pattern');
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Searches file contents under the root; returns `file:line: text` lines, capped. */
export const searchFiles = tool({
  name: 'search_files',
  description:
    'Search the text of the project files for a literal string or a regular expression. Returns matching lines ' +
    'as "path:line: text" (lines cut at 300 characters), at most max_results of them. Skips node_modules, .git ' +
    'and binary files. Narrow with path (a directory) and glob (e.g. "*.ts").',
  parameters: searchParams,
  execute: ({ pattern, regex, case_sensitive, path, glob, max_results }, ctx) => {
    const root = codeRoot(ctx.context);
    const start = resolveInside(root, path);
    if (regex) assertSafeRegex(pattern);
    let matcher: RegExp;
    try {
      matcher = new RegExp(regex ? pattern : escapeRegex(pattern), case_sensitive ? 'u' : 'iu');
    } catch (error) {
      throw new Error(`invalid regular expression: ${error instanceof Error ? error.message : String(error)}`);
    }
    const filter = glob === undefined ? undefined : globToRegExp(glob);
    const startFiles = statSync(start.real).isFile() ? [{ real: start.real, relative: start.relative }] : walkFiles(root, start.real, ctx.signal);
    const out: string[] = [];
    let files = 0;
    let more = false;
    outer: for (const file of startFiles) {
      if (filter && !filter.test(file.relative)) continue;
      let head: { bytes: Buffer; size: number };
      try {
        head = readHead(file.real, MAX_SEARCH_FILE_BYTES);
      } catch {
        continue;
      }
      if (looksBinary(head.bytes)) continue;
      files += 1;
      const lines = decodeHead(head.bytes, head.size > head.bytes.length).split(/\r?\n/);
      for (let i = 0; i < lines.length; i += 1) {
        const line = (lines[i] ?? '').slice(0, 2000);
        if (!matcher.test(line)) continue;
        if (out.length >= max_results) {
          more = true;
          break outer;
        }
        const text = line.trim();
        out.push(`${file.relative}:${i + 1}: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`);
      }
    }
    if (out.length === 0) return `No matches for ${regex ? '/' + pattern + '/' : JSON.stringify(pattern)} in ${files} files under ${start.relative}.`;
    const footer = more ? `\n[results capped at ${max_results} matches; narrow the search with path or glob]` : `\n(${out.length} matches in ${files} files searched)`;
    return `${out.join('\n')}${footer}`;
  },
});

const listParams = z.object({
  path: z.string().default('.').describe('Directory relative to the root. Default: the root'),
  pattern: z
    .string()
    .max(200)
    .optional()
    .describe('Glob over paths relative to path, searched recursively, e.g. "**/*.ts", "*.md", "src/*/index.js". Omit to list the directory itself'),
  max_results: z.number().int().min(1).max(1000).default(200).describe('Maximum entries (1-1000). Default 200'),
});

/** Lists a directory (directories end with "/") or, with a glob pattern, matching files recursively. */
export const listFiles = tool({
  name: 'list_files',
  description:
    'List project files. Without pattern: the entries of one directory (directories end with "/", files show ' +
    'their size). With pattern: files under path whose relative path matches the glob ("**/*.ts", "*.md"), ' +
    'recursively. node_modules and .git are skipped; output is capped at max_results.',
  parameters: listParams,
  execute: ({ path, pattern, max_results }, ctx) => {
    const root = codeRoot(ctx.context);
    const dir = resolveInside(root, path);
    if (!statSync(dir.real).isDirectory()) throw new PathRefusedError(`not a directory: ${path}`);
    const lines: string[] = [];
    let more = false;
    if (pattern === undefined) {
      for (const entry of readdirSync(dir.real, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (SKIPPED_DIRS.has(entry.name)) continue;
        if (lines.length >= max_results) {
          more = true;
          break;
        }
        const full = join(dir.real, entry.name);
        if (entry.isDirectory()) lines.push(`${entry.name}/`);
        else if (entry.isSymbolicLink()) {
          let inside = false;
          try {
            inside = isInside(root, realpathSync(full));
          } catch {
            inside = false;
          }
          lines.push(inside ? `${entry.name} (symlink)` : `${entry.name} (symlink outside the root, not readable)`);
        } else if (entry.isFile()) lines.push(`${entry.name} (${statSync(full).size} bytes)`);
      }
    } else {
      const matcher = globToRegExp(pattern);
      const prefix = dir.relative === '.' ? '' : `${dir.relative}/`;
      for (const file of walkFiles(root, dir.real, ctx.signal)) {
        const rel = file.relative.slice(prefix.length);
        if (!matcher.test(rel)) continue;
        if (lines.length >= max_results) {
          more = true;
          break;
        }
        lines.push(file.relative);
      }
    }
    const where = dir.relative === '.' ? 'the project root' : dir.relative;
    if (lines.length === 0) return pattern === undefined ? `${where} is empty.` : `No files under ${where} match ${pattern}.`;
    return `${lines.join('\n')}${more ? `\n[listing capped at ${max_results} entries]` : ''}`;
  },
});
