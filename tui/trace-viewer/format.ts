import { cutToWidth, fitToWidth } from '../../lib/core/display-width.js';
import type { TraceStep } from '../../lib/trace/trace-step.js';

/** The status glyph of a step: x error, ? awaiting review, ⊷ still running, ✓ done. */
export function stepGlyph(step: TraceStep): '✓' | '⊷' | '?' | 'x' {
  if (step.status === 'error') return 'x';
  const meta = step.metadata;
  if (meta?.['incomplete'] === true) return '⊷';
  const policy = meta?.['policy'];
  if (Array.isArray(policy) && policy.some((entry) => (entry as { decision?: unknown } | null)?.decision === 'review')) return '?';
  return '✓';
}

/**
 * Cuts `text` to `width` terminal columns (wide CJK characters and emoji count two), ending with
 * `…` when cut; pads it with spaces to exactly `width` columns when `pad`.
 */
export function fit(text: string, width: number, pad = false): string {
  return pad ? fitToWidth(text, width) : cutToWidth(text, width);
}

/** Collapses whitespace runs into single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
