/** The outcome of interpolating one string. */
export interface Interpolation {
  /** The string with every `${NAME}` replaced (`$${` kept as a literal `${`). */
  value: string;
  /** Whether the string contained at least one `${…}` reference. */
  used: boolean;
  /** Variables that are unset and have no `:-default`. */
  missing: string[];
  /** Malformed references (`${}`, `${not a name}`, an unclosed `${`). */
  invalid: string[];
}

const REFERENCE = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/**
 * Replaces `${NAME}` and `${NAME:-default}` (the default applies when NAME is unset or empty);
 * `$${…}` is an escape for a literal `${…}`. `lookup` answers a variable's value.
 */
export function interpolate(text: string, lookup: (name: string) => string | undefined): Interpolation {
  const result: Interpolation = { value: '', used: false, missing: [], invalid: [] };
  let i = 0;
  while (i < text.length) {
    const dollar = text.indexOf('$', i);
    if (dollar === -1) break;
    result.value += text.slice(i, dollar);
    if (text.startsWith('$${', dollar)) {
      result.value += '${';
      i = dollar + 3;
      continue;
    }
    if (!text.startsWith('${', dollar)) {
      result.value += '$';
      i = dollar + 1;
      continue;
    }
    const close = text.indexOf('}', dollar + 2);
    if (close === -1) {
      result.invalid.push(text.slice(dollar));
      return { ...result, value: result.value + text.slice(dollar) };
    }
    result.used = true;
    const inner = text.slice(dollar + 2, close);
    const match = REFERENCE.exec(inner);
    const name = match?.[1];
    if (match === null || name === undefined) {
      result.invalid.push(`\${${inner}}`);
    } else {
      const found = lookup(name);
      const fallback = match[2];
      if (found !== undefined && (found !== '' || fallback === undefined)) result.value += found;
      else if (fallback !== undefined) result.value += fallback;
      else result.missing.push(name);
    }
    i = close + 1;
  }
  result.value += text.slice(i);
  return result;
}
