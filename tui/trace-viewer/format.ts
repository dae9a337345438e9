import type { TraceStep } from '../../lib/trace/trace-step.js';

/** A duration for a narrow column: `850ms`, `1.25s`, `12.5s`, `2m05s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(2)}s`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${minutes}m${String(seconds).padStart(2, '0')}s`;
}

/** A token count: `950`, `1.2k`, `12k`, `3.4M`. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(Math.round(count));
  if (count < 10_000) return `${(count / 1000).toFixed(1)}k`;
  if (count < 1_000_000) return `${Math.round(count / 1000)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

/** A cost in USD: `$0.0012` below a cent, `$0.12`, `$12.50`; empty for none. */
export function formatCost(usd: number | undefined): string {
  if (usd === undefined || usd === 0) return '';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/** The status glyph of a step: x error, ? awaiting review, ⊷ still running, ✓ done. */
export function stepGlyph(step: TraceStep): '✓' | '⊷' | '?' | 'x' {
  if (step.status === 'error') return 'x';
  const meta = step.metadata;
  if (meta?.['incomplete'] === true) return '⊷';
  const policy = meta?.['policy'];
  if (Array.isArray(policy) && policy.some((entry) => (entry as { decision?: unknown } | null)?.decision === 'review')) return '?';
  return '✓';
}

/** Cuts `text` to `width` columns, ending with `…` when cut; pads to `width` when `pad`. */
export function fit(text: string, width: number, pad = false): string {
  if (width <= 0) return '';
  const chars = [...text];
  const out = chars.length > width ? `${chars.slice(0, Math.max(0, width - 1)).join('')}…` : text;
  return pad ? out + ' '.repeat(Math.max(0, width - [...out].length)) : out;
}

/** Collapses whitespace runs into single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
