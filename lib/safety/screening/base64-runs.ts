/** 1 for the characters of base64 (A–Z a–z 0–9 + /), 2 for those that glue a run into a longer token (= _ -). */
const BASE64_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9+/]/.test(ch)) BASE64_CLASS[c] = 1;
  else if (/[=_-]/.test(ch)) BASE64_CLASS[c] = 2;
}

function base64Class(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c < 128 ? BASE64_CLASS[c]! : 0;
}

/** The shortest run screened for an encoded payload. */
export const MIN_BASE64_RUN = 24;

/**
 * Runs of 24+ base64 characters (with up to two `=`) standing alone, not part of a longer token
 * with `_` or `-` (URL-safe ids, slugs).
 *
 * Only every 24th character is probed: any run of 24 contains one of them. A probe on a base64
 * character grows to the run around it (a word of prose, mostly, which is too short); a probe on
 * anything else moves on by 24. A regex would retry at every position inside every word.
 */
export function base64Runs(text: string): { start: number; end: number }[] {
  const runs: { start: number; end: number }[] = [];
  const n = text.length;
  let probe = MIN_BASE64_RUN - 1;
  while (probe < n) {
    if (base64Class(text, probe) !== 1) {
      probe += MIN_BASE64_RUN;
      continue;
    }
    let start = probe;
    while (start > 0 && base64Class(text, start - 1) === 1) start--;
    let i = probe + 1;
    while (i < n && base64Class(text, i) === 1) i++;
    // `i` is the first character after the run: the next run starts after it.
    probe = i + MIN_BASE64_RUN;
    if (i - start < MIN_BASE64_RUN) continue;
    let end = i;
    while (end < n && end - i < 2 && text.charCodeAt(end) === 61) end++;
    const glued = (start > 0 && base64Class(text, start - 1) === 2) || (end < n && base64Class(text, end) !== 0);
    if (!glued) runs.push({ start, end });
  }
  return runs;
}
