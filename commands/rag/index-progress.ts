import type { CliIO } from '../../cli/output.js';
import type { IndexSourcesProgress } from '../../lib/rag/indexer.js';

/** Shows `agentlib rag index` progress on stderr. */
export interface IndexProgressView {
  update(progress: IndexSourcesProgress): void;
  stop(): void;
}

/** True when stderr is a terminal and `CI` is unset (CI logs get plain lines). */
export function wantsProgressBar(io: CliIO): boolean {
  const ci = io.env.CI;
  return io.stderr.isTTY === true && (ci === undefined || ci === '' || ci === '0' || ci === 'false');
}

function seconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  return s < 60 ? `${Math.round(s)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/**
 * A bar redrawn in place (at most ten times a second): files done, chunks, embeddings, the
 * embedding rate and an estimate of the time left (from the share of files done).
 */
export function progressBar(io: CliIO, now: () => number = Date.now): IndexProgressView {
  const started = now();
  let last: IndexSourcesProgress | undefined;
  let drawnAt = 0;
  const draw = (): void => {
    if (last === undefined) return;
    const elapsed = (now() - started) / 1000;
    const share = last.totalFiles === 0 ? 1 : last.files / last.totalFiles;
    const filled = Math.round(share * 24);
    const rate = elapsed > 0 ? last.embedded / elapsed : 0;
    const eta = share > 0 && share < 1 ? (elapsed / share) * (1 - share) : share >= 1 ? 0 : Infinity;
    const width = Math.max(40, (io.stderr.columns ?? 80) - 1);
    let line = `[${'█'.repeat(filled)}${'░'.repeat(24 - filled)}] ${last.files}/${last.totalFiles} files · ${last.chunks} chunks · ${last.embedded} embedded · ${rate.toFixed(0)}/s · ETA ${seconds(eta)}${last.current === undefined ? '' : ` · ${last.current}`}`;
    if (line.length > width) line = `${line.slice(0, width - 1)}…`;
    io.stderr.write(`\r\x1b[2K${line}`);
    drawnAt = now();
  };
  return {
    update: (progress) => {
      last = progress;
      if (now() - drawnAt >= 100 || progress.files === progress.totalFiles) draw();
    },
    stop: () => {
      draw();
      io.stderr.write('\n');
    },
  };
}

/** One line per finished file: `[3/20] guides/setup.md: 12 chunks` (or `unchanged`). */
export function plainProgress(io: CliIO): IndexProgressView {
  let files = 0;
  let skipped = 0;
  let chunks = 0;
  return {
    update: (progress) => {
      if (progress.files === files || progress.current === undefined) return;
      const what = progress.skipped > skipped ? 'unchanged, skipped' : `${progress.chunks - chunks} chunks`;
      io.stderr.write(`[${progress.files}/${progress.totalFiles}] ${progress.current}: ${what}\n`);
      files = progress.files;
      skipped = progress.skipped;
      chunks = progress.chunks;
    },
    stop: () => undefined,
  };
}
