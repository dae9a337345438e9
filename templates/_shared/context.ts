/**
 * Reading the caller's `run(input, { context })` object from inside a template tool. The context is
 * typed `unknown` (the Agent never checks it), so every read is defensive.
 */

/** The string at `context[key]`, or undefined when the context is not an object or the value is not a non-empty string. */
export function contextString(context: unknown, key: string): string | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  const value: unknown = (context as Record<string, unknown>)[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The positive number at `context[key]`, or undefined. */
export function contextNumber(context: unknown, key: string): number | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  const value: unknown = (context as Record<string, unknown>)[key];
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The raw value at `context[key]` (undefined when the context is not an object). */
export function contextValue(context: unknown, key: string): unknown {
  if (typeof context !== 'object' || context === null) return undefined;
  return (context as Record<string, unknown>)[key];
}

/** The first non-empty environment variable among `names`. */
export function envString(...names: string[]): string | undefined {
  for (const name of names) {
    const value = process.env[name];
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  return undefined;
}
