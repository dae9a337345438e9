import type { EvalReport } from '../../lib/evals/eval-report.js';
import { ExitCode } from '../../cli/exit-codes.js';

/**
 * The exit code of an eval: 130 when interrupted; 1 when a baseline case regressed; with a
 * threshold (`--fail-under` or the suite's `threshold`), 0 when accuracy reaches it, else 1;
 * without one, 3 when a case hit a runtime/provider error, 1 when one failed, else 0.
 */
export function evalExitCode(report: EvalReport, options: { threshold?: number; regressed?: boolean }): ExitCode {
  if (report.cancelled) return ExitCode.INTERRUPTED;
  if (options.regressed === true) return ExitCode.EVAL_FAILED;
  if (options.threshold !== undefined) return report.accuracy + 1e-12 >= options.threshold ? ExitCode.OK : ExitCode.EVAL_FAILED;
  if (report.counts.error > 0) return ExitCode.RUNTIME;
  return report.counts.fail > 0 ? ExitCode.EVAL_FAILED : ExitCode.OK;
}
