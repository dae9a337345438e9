const OPEN = '<think>';
const CLOSE = '</think>';

/** Removes `<think>…</think>` blocks from a whole text; returns the answer and the thinking. */
export function stripThink(text: string): { text: string; reasoning: string } {
  if (!text.includes(OPEN)) return { text, reasoning: '' };
  const filter = new ThinkFilter();
  const a = filter.push(text);
  const b = filter.flush();
  return { text: (a.text + b.text).trim(), reasoning: (a.reasoning + b.reasoning).trim() };
}

/**
 * Splits a streamed text into answer and `<think>` content, also when a tag is split across
 * chunks: a possible partial tag at the end of a chunk is held back until the next chunk.
 */
export class ThinkFilter {
  #inside = false;
  #pending = '';

  /**
   * True when outside a `<think>` block with nothing held back: a chunk without `<` then comes out
   * of `push` unchanged, as answer text, so a caller may use it as it is and skip `push`. Changes
   * only in `push` and `flush`.
   */
  get idle(): boolean {
    return !this.#inside && this.#pending === '';
  }

  /** Feeds one chunk; returns what can be emitted now. */
  push(chunk: string): { text: string; reasoning: string } {
    // Fast path (nearly every chunk): outside a block, nothing held back, no '<' at all.
    if (!this.#inside && this.#pending === '' && !chunk.includes('<')) return { text: chunk, reasoning: '' };
    let input = this.#pending + chunk;
    this.#pending = '';
    let text = '';
    let reasoning = '';
    while (input.length > 0) {
      const tag = this.#inside ? CLOSE : OPEN;
      const index = input.indexOf(tag);
      if (index >= 0) {
        if (this.#inside) reasoning += input.slice(0, index);
        else text += input.slice(0, index);
        input = input.slice(index + tag.length);
        this.#inside = !this.#inside;
        continue;
      }
      const keep = partialSuffix(input, tag);
      const emit = input.slice(0, input.length - keep);
      if (this.#inside) reasoning += emit;
      else text += emit;
      this.#pending = input.slice(input.length - keep);
      break;
    }
    return { text, reasoning };
  }

  /** Ends the stream: releases anything held back. */
  flush(): { text: string; reasoning: string } {
    const rest = this.#pending;
    this.#pending = '';
    return this.#inside ? { text: '', reasoning: rest } : { text: rest, reasoning: '' };
  }
}

/** Length of the longest suffix of `input` that is a proper prefix of `tag`. */
function partialSuffix(input: string, tag: string): number {
  const lt = input.lastIndexOf('<');
  if (lt === -1 || input.length - lt >= tag.length) return 0;
  for (let n = Math.min(tag.length - 1, input.length); n > 0; n--) {
    if (input.endsWith(tag.slice(0, n))) return n;
  }
  return 0;
}
