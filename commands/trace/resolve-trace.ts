import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { TraceFormatError } from '../../lib/core/errors/trace-format-error.js';
import { closestMatch } from '../../lib/core/suggest.js';
import { AgentTrace } from '../../lib/trace/agent-trace.js';
import { UsageError } from '../../cli/usage-error.js';
import { DEFAULT_TRACE_DIR } from '../run/save-trace.js';

/** Where traces are looked up: the working directory and the trace directory (absolute). */
export interface TraceLocation {
  cwd: string;
  dir: string;
}

/** The trace directory: `--dir` (relative to `cwd`), else `.agentlib/traces` under `cwd`. */
export function traceLocation(cwd: string, dirOption: unknown): TraceLocation {
  const dir = typeof dirOption === 'string' && dirOption !== '' ? dirOption : DEFAULT_TRACE_DIR;
  return { cwd, dir: resolve(cwd, dir) };
}

/** A path as shown to the user: relative to `cwd` when inside it. */
export function shownPath(path: string, cwd: string): string {
  const shown = relative(cwd, path);
  return shown === '' || shown.startsWith('..') || isAbsolute(shown) ? path : shown;
}

/** The `*.jsonl` files of the trace directory (absolute paths, sorted by name); none when it is missing. */
export async function listTraceFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (isCode(error, 'ENOENT') || isCode(error, 'ENOTDIR')) return [];
    throw error;
  }
  return names
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => resolve(dir, name));
}

/** The id of a trace file: its name without `.jsonl` (the run id for traces `agentlib run` saved). */
export function traceIdOf(path: string): string {
  return basename(path).replace(/\.jsonl$/, '');
}

/**
 * Finds the trace file `ref` names: an existing file path; else a trace id in the trace directory
 * (`<dir>/<id>.jsonl`); else a unique prefix of one (`run_` may be left out). An ambiguous prefix
 * is a UsageError listing the candidates; an unknown one a UsageError with a did-you-mean.
 */
export async function resolveTrace(ref: string, location: TraceLocation): Promise<string> {
  if (ref.trim() === '') throw new UsageError('a trace id or file is required (an empty string was given)');
  const direct = resolve(location.cwd, ref);
  if (await isFile(direct)) return direct;
  const files = await listTraceFiles(location.dir);
  const ids = files.map(traceIdOf);
  const wanted = ref.endsWith('.jsonl') && !ref.includes('/') && !ref.includes(sep) ? ref.slice(0, -'.jsonl'.length) : ref;
  const exact = ids.indexOf(wanted);
  if (exact >= 0) return files[exact] as string;
  const looksLikePath = ref.includes('/') || ref.includes(sep) || ref.endsWith('.jsonl');
  if (!looksLikePath) {
    const matches = files.filter((file) => {
      const id = traceIdOf(file);
      return id.startsWith(wanted) || id.startsWith(`run_${wanted}`);
    });
    if (matches.length === 1) return matches[0] as string;
    if (matches.length > 1) {
      const shown = matches.slice(0, 10).map(traceIdOf);
      const more = matches.length > shown.length ? `, … (${matches.length - shown.length} more)` : '';
      throw new UsageError(`trace id "${ref}" is ambiguous: it matches ${matches.length} traces: ${shown.join(', ')}${more}; give more characters`);
    }
  }
  const where = shownPath(location.dir, location.cwd);
  const suggestion = closestMatch(looksLikePath ? traceIdOf(ref) : wanted, ids);
  const hint = suggestion !== undefined ? ` Did you mean "${suggestion}"?` : ids.length === 0 ? ` (no traces in ${where}; \`agentlib run\` saves them there)` : ' Run "agentlib trace ls" to list the traces.';
  const what = looksLikePath ? `trace file not found: ${ref}` : `no trace "${ref}": not a file, and no trace id in ${where} starts with it`;
  throw new UsageError(`${what}.${hint}`, suggestion === undefined ? {} : { suggestion });
}

/**
 * The most recently written trace of the trace directory (by modification time, then name): what
 * `trace view` opens without an argument. A UsageError when the directory holds none.
 */
export async function latestTrace(location: TraceLocation): Promise<string> {
  const files = await listTraceFiles(location.dir);
  const times = await Promise.all(files.map(async (file) => ({ file, mtime: (await stat(file)).mtimeMs })));
  const newest = times.sort((a, b) => b.mtime - a.mtime || b.file.localeCompare(a.file))[0];
  if (newest === undefined) throw new UsageError(`no traces in ${shownPath(location.dir, location.cwd)} (\`agentlib run\` and \`agentlib chat\` save them there); give a trace file`);
  return newest.file;
}

/** A trace read from disk, with the path it came from. */
export interface LoadedTrace {
  /** Absolute path. */
  path: string;
  /** The path as shown to the user. */
  shown: string;
  trace: AgentTrace;
}

/**
 * Resolves `ref` (see `resolveTrace`) and reads the trace. A malformed file is a UsageError naming
 * the file and line (`path:line: problem`), so the CLI exits 2.
 */
export async function loadTrace(ref: string, location: TraceLocation): Promise<LoadedTrace> {
  const path = await resolveTrace(ref, location);
  const shown = shownPath(path, location.cwd);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read trace ${shown}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  try {
    return { path, shown, trace: AgentTrace.fromJSONL(text) };
  } catch (error) {
    throw traceFileError(error, shown);
  }
}

/** Turns a TraceFormatError into a UsageError naming the file and line; other errors pass through. */
export function traceFileError(error: unknown, shown: string): unknown {
  if (!TraceFormatError.isInstance(error)) return error;
  if (error.line === undefined) return new UsageError(`invalid trace ${shown}: ${error.message}`, { cause: error });
  const detail = error.message.replace(/^trace line \d+: /, '');
  return new UsageError(`invalid trace ${shown}:${error.line}: ${detail}`, { cause: error });
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
