/** Milliseconds as `12ms`, `1.25s`, `2m05s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes}m${String(seconds).padStart(2, '0')}s`;
}

/** USD with enough digits to show small per-call costs: `$0.000027`, `$0.0123`, `$1.50`. */
export function formatCost(usd: number): string {
  if (!Number.isFinite(usd)) return '-';
  if (usd === 0) return '$0';
  const sign = usd < 0 ? '-' : '';
  const abs = Math.abs(usd);
  if (abs >= 1) return `${sign}$${abs.toFixed(2)}`;
  if (abs >= 0.01) return `${sign}$${abs.toFixed(4)}`;
  const digits = Math.min(10, -Math.floor(Math.log10(abs)) + 1);
  return `${sign}$${abs.toFixed(digits)}`;
}

/** A token count: `875`, `12,400`, `1.2M`. */
export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(1)}M`;
  return tokens.toLocaleString('en-US');
}

/** A signed difference: `+3`, `-120ms`, `±0`. */
export function formatDelta(delta: number, format: (value: number) => string = String): string {
  if (delta === 0) return '±0';
  return delta > 0 ? `+${format(delta)}` : `-${format(-delta)}`;
}

/** Cuts `text` to `width` characters (code points), marking the cut with `…`; line breaks and tabs become spaces. */
export function fit(text: string, width: number): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ');
  const chars = [...flat];
  if (chars.length <= width) return flat;
  if (width <= 0) return '';
  return `${chars.slice(0, width - 1).join('')}…`;
}

/** Pads (or cuts) `text` to exactly `width` characters. */
export function cell(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const cut = fit(text, width);
  const pad = ' '.repeat(Math.max(0, width - [...cut].length));
  return align === 'left' ? cut + pad : pad + cut;
}

/** A local date and time, `2025-01-31 14:05`. */
export function formatTimestamp(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '-';
  const d = new Date(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** Lines of rows as a table with columns padded to their widest cell (`right` lists right-aligned columns). */
export function table(rows: readonly (readonly string[])[], right: ReadonlySet<number> = new Set()): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((value, col) => (widths[col] = Math.max(widths[col] ?? 0, [...value].length)));
  return rows.map((row) =>
    row
      .map((value, col) => (col === row.length - 1 && !right.has(col) ? value : cell(value, widths[col] ?? 0, right.has(col) ? 'right' : 'left')))
      .join('  ')
      .trimEnd(),
  );
}
