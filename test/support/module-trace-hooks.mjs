// Module customization hooks (run on Node's loader thread): append each resolved specifier and
// its URL to the trace file given by module-trace-register.mjs.
import { appendFileSync } from 'node:fs';

let file;

/** @param {{ file: string }} data */
export function initialize(data) {
  file = data.file;
}

/**
 * @param {string} specifier
 * @param {object} context
 * @param {(specifier: string, context: object) => Promise<{ url: string }>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  appendFileSync(file, `${specifier}\t${result.url}\n`);
  return result;
}
