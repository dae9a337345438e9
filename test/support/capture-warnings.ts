import { mock } from 'node:test';

/** A process warning a test expected: its text and type (`DeprecationWarning`, …). */
export interface CapturedWarning {
  message: string;
  type: string | undefined;
}

/**
 * Runs `fn` with `process.emitWarning` captured: the warnings it emits are returned instead of
 * printed, so a test that expects one asserts it and a clean test run prints none
 * (scripts/warning-guard.mjs fails a test file that lets a warning through).
 */
export async function captureWarnings<T>(fn: () => T | Promise<T>): Promise<{ result: T; warnings: CapturedWarning[] }> {
  const warnings: CapturedWarning[] = [];
  const spy = mock.method(process, 'emitWarning', (warning: string | Error, options?: string | { type?: string }) => {
    const type = typeof options === 'string' ? options : (options?.type ?? (warning instanceof Error ? warning.name : undefined));
    warnings.push({ message: warning instanceof Error ? warning.message : String(warning), type });
  });
  try {
    return { result: await fn(), warnings };
  } finally {
    spy.mock.restore();
  }
}

/**
 * Runs `fn`, which uses a Node feature that is experimental on some supported Node versions (the
 * MockTimers API on Node 20): its ExperimentalWarning is captured (not printed); any other warning
 * fails. Returns what `fn` returned.
 */
export async function usingExperimental<T>(feature: RegExp, fn: () => T | Promise<T>): Promise<T> {
  const { result, warnings } = await captureWarnings(fn);
  const other = warnings.filter((warning) => !(warning.type === 'ExperimentalWarning' && feature.test(warning.message)));
  if (other.length > 0) throw new Error(`unexpected warnings: ${other.map((warning) => `${warning.type ?? 'Warning'}: ${warning.message}`).join('; ')}`);
  return result;
}

/** The notice the Anthropic SDK prints with `console.warn` on every call to a model it lists as deprecated. */
export const SDK_MODEL_DEPRECATION = /^The model '[^']+' is deprecated and will reach end-of-life/;

/**
 * Captures `console.warn` calls whose first argument matches `pattern` (a notice an SDK prints,
 * that a test calling a recorded, now deprecated model expects) until `restore()`; other calls
 * print as usual.
 */
export function captureConsoleWarnings(pattern: RegExp): { captured: string[]; restore: () => void } {
  const captured: string[] = [];
  const original = console.warn.bind(console);
  const spy = mock.method(console, 'warn', (...args: unknown[]) => {
    if (typeof args[0] === 'string' && pattern.test(args[0])) captured.push(args[0]);
    else original(...args);
  });
  return { captured, restore: () => spy.mock.restore() };
}
