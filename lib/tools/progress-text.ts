import type { ToolProgress } from './types.js';

/**
 * The text of a progress report as a `tool-chunk` chunk: `progress 2/5: downloading\n`
 * (`progress 2` without a total, `: message` only when there is one), one line per report.
 */
export function progressText(update: ToolProgress): string {
  const amount = update.total === undefined ? `${update.progress}` : `${update.progress}/${update.total}`;
  const message = update.message === undefined || update.message === '' ? '' : `: ${update.message}`;
  return `progress ${amount}${message}\n`;
}
