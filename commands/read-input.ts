import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CliIO } from '../cli/output.js';
import { UsageError } from '../cli/usage-error.js';
import { readStdinText } from './read-stdin.js';

/** The text of `file` (relative to the working directory), or everything piped on stdin. */
export async function readInputText(file: string | undefined, io: CliIO, usage: string): Promise<string> {
  if (file !== undefined && file !== '') {
    try {
      return await readFile(resolve(io.cwd ?? process.cwd(), file), 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read "${file}": ${(error as Error).message}`);
    }
  }
  return readStdinText(io, 'The input', `No input: pass a file or pipe the text on stdin (${usage}).`);
}
