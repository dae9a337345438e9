import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CliIO } from '../cli/output.js';
import { UsageError } from '../cli/usage-error.js';

/** Largest text read (10 MB). */
const MAX_BYTES = 10 * 1024 * 1024;

/** The text of `file` (relative to the working directory), or everything piped on stdin. */
export async function readInputText(file: string | undefined, io: CliIO, usage: string): Promise<string> {
  if (file !== undefined && file !== '') {
    try {
      return await readFile(resolve(io.cwd ?? process.cwd(), file), 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read "${file}": ${(error as Error).message}`);
    }
  }
  const stdin = io.stdin;
  if (stdin === undefined || stdin.isTTY === true) throw new UsageError(`No input: pass a file or pipe the text on stdin (${usage}).`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk);
    size += buffer.length;
    if (size > MAX_BYTES) throw new UsageError(`The input on stdin is larger than ${MAX_BYTES / 1024 / 1024} MB.`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
