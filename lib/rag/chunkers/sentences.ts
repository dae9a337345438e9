/**
 * The sentences of a text as `[start, end)` spans: cut after `.`, `!` or `?` (plus closing quotes
 * or brackets) followed by whitespace, and at blank lines; whitespace between sentences is left out.
 */
export function sentenceSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  const boundary = /[.!?]+["')\]]*(?=\s)|\n\s*\n/g;
  let start = 0;
  const push = (end: number): void => {
    let s = start;
    let e = end;
    while (s < e && /\s/.test(text[s] as string)) s++;
    while (e > s && /\s/.test(text[e - 1] as string)) e--;
    if (e > s) spans.push([s, e]);
  };
  for (const match of text.matchAll(boundary)) {
    const end = (match.index ?? 0) + match[0].length;
    push(end);
    start = end;
  }
  push(text.length);
  return spans;
}
