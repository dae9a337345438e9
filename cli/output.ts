/** A stream the CLI writes to (process.stdout / process.stderr, or a buffer in tests). */
export interface OutputStream {
  write(chunk: string): unknown;
  /** True when the stream is a terminal. */
  isTTY?: boolean;
  /** Terminal width, when known. */
  columns?: number;
}

/**
 * The CLI's view of the outside world: data goes to `stdout`, logs, progress and errors to
 * `stderr`, so `agentlib … --json | jq` always sees clean data.
 */
export interface CliIO {
  stdout: OutputStream;
  stderr: OutputStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Where prompts and piped input come from. Default (when absent): nothing to read, not a TTY. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** The working directory relative paths resolve against. Default `process.cwd()`. */
  cwd?: string;
}

/** Version of the envelope of every `--json` document the CLI prints. */
export const JSON_DOCUMENT_VERSION = 1;

/** The real process streams and environment. */
export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, stdin: process.stdin, cwd: process.cwd() };
}

/** Writes data to stdout, ending it with a newline. */
export function writeData(io: CliIO, text: string): void {
  io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Writes a log line (progress, warnings, errors) to stderr. */
export function writeLog(io: CliIO, text: string): void {
  io.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * Writes one JSON document to stdout. It always carries `version` (the CLI's JSON format version)
 * first; a `version` field in `document` is not allowed, to keep the envelope unambiguous.
 */
export function writeJson(io: CliIO, document: Readonly<Record<string, unknown>>): void {
  if (Object.hasOwn(document, 'version')) throw new TypeError('a --json document must not set "version" itself');
  io.stdout.write(`${JSON.stringify({ version: JSON_DOCUMENT_VERSION, ...document }, null, 2)}\n`);
}

/**
 * Whether to colour output on `stream`: never when `FORCE_COLOR` is `0`/`false` or `NO_COLOR` is
 * non-empty (the launcher turns `--no-color` into `FORCE_COLOR=0`); always when `FORCE_COLOR` is
 * set otherwise; else only on a terminal that is not `dumb`.
 */
export function colorEnabled(stream: OutputStream, env: Readonly<Record<string, string | undefined>>): boolean {
  const force = env.FORCE_COLOR;
  if (force === '0' || force === 'false') return false;
  if ((env.NO_COLOR ?? '') !== '') return false;
  if (force !== undefined) return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}
