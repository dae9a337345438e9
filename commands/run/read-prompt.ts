import { UsageError } from '../../cli/usage-error.js';
import type { CliIO } from '../../cli/output.js';

/** Largest prompt read from stdin (10 MB): more is almost certainly a mistake. */
const MAX_STDIN_BYTES = 10 * 1024 * 1024;

/**
 * The prompt: the positional argument when given, otherwise everything piped on stdin. A terminal
 * on stdin with no argument is a usage error (nothing would ever arrive).
 */
export async function readPrompt(argument: string | undefined, io: CliIO): Promise<string> {
  if (argument !== undefined && argument !== '') return argument;
  const stdin = io.stdin;
  if (stdin === undefined || stdin.isTTY === true) {
    throw new UsageError('No prompt: pass it as an argument (agentlib run agent.yaml "question") or pipe it on stdin.');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk);
    size += buffer.length;
    if (size > MAX_STDIN_BYTES) throw new UsageError(`The prompt on stdin is larger than ${MAX_STDIN_BYTES / 1024 / 1024} MB.`);
    chunks.push(buffer);
  }
  const prompt = Buffer.concat(chunks).toString('utf8').trim();
  if (prompt === '') throw new UsageError('The prompt on stdin is empty.');
  return prompt;
}
