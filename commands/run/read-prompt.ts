import { UsageError } from '../../cli/usage-error.js';
import type { CliIO } from '../../cli/output.js';
import { readStdinText } from '../read-stdin.js';

/**
 * The prompt: the positional argument when given, otherwise everything piped on stdin. A terminal
 * on stdin with no argument is a usage error (nothing would ever arrive).
 */
export async function readPrompt(argument: string | undefined, io: CliIO): Promise<string> {
  if (argument !== undefined && argument !== '') return argument;
  const prompt = (await readStdinText(io, 'The prompt', 'No prompt: pass it as an argument (agentlib run agent.yaml "question") or pipe it on stdin.')).trim();
  if (prompt === '') throw new UsageError('The prompt on stdin is empty.');
  return prompt;
}
