import type { CliIO } from '../cli/output.js';
import { UsageError } from '../cli/usage-error.js';

/** Largest text read from stdin (10 MB): more is almost certainly a mistake. */
export const MAX_STDIN_BYTES = 10 * 1024 * 1024;

/**
 * Everything piped on stdin, as UTF-8, up to {@link MAX_STDIN_BYTES}. A terminal on stdin (nothing
 * would ever arrive) is a UsageError saying `noInput`; `what` names the text in the size error
 * ("The prompt on stdin is larger than 10 MB.").
 */
export async function readStdinText(io: CliIO, what: string, noInput: string): Promise<string> {
  const stdin = io.stdin;
  if (stdin === undefined || stdin.isTTY === true) throw new UsageError(noInput);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > MAX_STDIN_BYTES) throw new UsageError(`${what} on stdin is larger than ${MAX_STDIN_BYTES / 1024 / 1024} MB.`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
