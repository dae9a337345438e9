import { describeWait, type EvalWait } from '../../lib/evals/attempt-wait.js';
import type { EvalProgress } from '../../lib/evals/eval-suite.js';
import type { CliIO } from '../../cli/output.js';

/** Shows a running suite on stderr. */
export interface EvalProgressView {
  handle(progress: EvalProgress): void;
  stop(): void;
}

/** True when stderr is a terminal and `CI` is unset (CI logs get plain lines). */
export function wantsLiveView(io: CliIO): boolean {
  const ci = io.env.CI;
  return io.stderr.isTTY === true && (ci === undefined || ci === '' || ci === '0' || ci === 'false');
}

/** One line per finished case: `[3/20] pass  refund flow (1.2 s)`. */
export function plainProgress(io: CliIO, total: number): EvalProgressView {
  return {
    handle: (p) => {
      if (p.type !== 'case-end') return;
      const ms = p.result.attempts.reduce((s, a) => s + a.latencyMs, 0);
      io.stderr.write(`[${p.done}/${total}] ${p.result.verdict.padEnd(5)} ${p.result.id}${p.result.attempts.length > 1 ? ` (${p.result.attempts.filter((a) => a.verdict === 'pass').length}/${p.result.attempts.length} runs passed)` : ''} (${(ms / 1000).toFixed(1)} s)\n`);
    },
    stop: () => undefined,
  };
}

/**
 * A live view redrawn in place: a progress bar with the verdict counts, then one line per worker
 * with the case and attempt it runs, what it waits on (`model gpt-4o-mini`, `tool search_kb`,
 * `retry backoff 1.5 s (retry 2, gpt-4o-mini)`, `checks`) and for how long the attempt has run.
 * Redrawn at most ~10 times a second (and once more by `stop`).
 */
export function liveProgress(io: CliIO, total: number, workers: number, now: () => number = Date.now): EvalProgressView {
  const busy = new Map<number, { caseId: string; attempt: number; since: number; wait: EvalWait }>();
  const counts = { pass: 0, fail: 0, error: 0, skip: 0 };
  let done = 0;
  let drawn = 0;
  const width = Math.max(40, (io.stderr.columns ?? 80) - 1);
  const draw = (): void => {
    const filled = total === 0 ? 0 : Math.round((done / total) * 30);
    const lines = [`[${'█'.repeat(filled)}${'░'.repeat(30 - filled)}] ${done}/${total}  ✓ ${counts.pass}  ✗ ${counts.fail}  ! ${counts.error}`];
    for (let w = 1; w <= workers; w++) {
      const job = busy.get(w);
      const text = job === undefined ? `  worker ${w}: idle` : `  worker ${w}: ${job.caseId} (run ${job.attempt}) ${describeWait(job.wait, now())}, ${((now() - job.since) / 1000).toFixed(1)} s`;
      lines.push(text.length > width ? `${text.slice(0, width - 1)}…` : text);
    }
    io.stderr.write(`${drawn > 0 ? `\x1b[${drawn}A` : ''}${lines.map((l) => `\x1b[2K${l}`).join('\n')}\n`);
    drawn = lines.length;
  };
  const timer = setInterval(draw, 100);
  timer.unref();
  return {
    handle: (p) => {
      if (p.type === 'attempt-start') busy.set(p.worker, { caseId: p.caseId, attempt: p.attempt, since: now(), wait: { on: 'agent' } });
      else if (p.type === 'attempt-wait') {
        const job = busy.get(p.worker);
        if (job !== undefined) job.wait = p.wait;
      } else if (p.type === 'attempt-end') busy.delete(p.worker);
      else {
        done = p.done;
        counts[p.result.verdict]++;
      }
    },
    stop: () => {
      clearInterval(timer);
      draw();
    },
  };
}
