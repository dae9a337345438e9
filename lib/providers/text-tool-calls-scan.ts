/** Where a JSON value that starts at some offset ends. */
export interface JsonScan {
  /** True when the opening brace/bracket was closed. */
  complete: boolean;
  /** Offset just past the value (the text length when incomplete). */
  end: number;
}

/**
 * Finds the end of the JSON object or array opening at `start` by counting braces and brackets
 * outside JSON strings (escapes inside strings are honoured). Does not validate the JSON.
 */
export function scanJsonValue(text: string, start: number): JsonScan {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) return { complete: true, end: i + 1 };
    }
  }
  return { complete: false, end: text.length };
}
