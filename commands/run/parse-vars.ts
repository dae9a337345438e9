import { UsageError } from '../../cli/usage-error.js';

/** Parses repeated `--var key=value` flags into a record (later flags win). */
export function parseVars(values: readonly unknown[] | undefined): Record<string, string> {
  const vars: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const raw of values ?? []) {
    const text = String(raw);
    const eq = text.indexOf('=');
    const key = eq === -1 ? '' : text.slice(0, eq).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
      throw new UsageError(`--var expects key=value with a name of letters, digits and _ (got "${text}").`);
    }
    vars[key] = text.slice(eq + 1);
  }
  return vars;
}
