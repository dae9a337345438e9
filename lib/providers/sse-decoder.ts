/** One server-sent event: its `event` field (null when it had none) and its data lines joined by "\n". */
export interface SseEvent {
  event: string | null;
  data: string;
}

const LF = 10;
const SPACE = 32;
const COLON = 58;

/**
 * An incremental, pull-style `text/event-stream` parser (the WHATWG HTML rules for interpreting an
 * event stream): text goes in with `feed()` as it arrives, in pieces of any size, and `next()`
 * parses only as far as the next complete event. A network read that brings a hundred events costs
 * nothing until they are asked for, so the first one is out as soon as it is parsed.
 *
 * - Lines end in LF, CRLF or CR, also when a CRLF pair is split across two pieces.
 * - A blank line dispatches the event when it has data (an event without `data:` lines is dropped,
 *   as the standard says); `event:` sets its type; lines starting with ":" are comments; `id:`,
 *   `retry:` and unknown fields are ignored; one space after the colon is removed.
 * - Text after the last blank line at the end of the stream is an incomplete event and is dropped
 *   (`end()`), like the standard and the provider SDKs' own decoders.
 *
 * It decodes no bytes: the caller turns them into text (a streaming TextDecoder), so a multi-byte
 * character split across network reads is whole by the time it gets here.
 */
export class SseDecoder {
  /** The text fed and not yet parsed starts at `#pos`. */
  #text = '';
  #pos = 0;
  /** The next LF / CR at or after `#pos` (-1: none; stale when below `#pos`, searched again then). */
  #lf = -1;
  #cr = -1;
  /** Parsing stopped at an unterminated line (it holds no line end: after a feed, searches skip it). */
  #partial = false;
  #searchFrom = 0;
  /** The text so far ended in CR: an LF opening the next piece belongs to that line end. */
  #skipLF = false;
  #event: string | null = null;
  #data = '';
  #hasData = false;

  /** Adds the next piece of the stream. */
  feed(piece: string): void {
    // Nothing to add (an empty read): a pending CR of a split CRLF must stay pending.
    if (piece.length === 0) return;
    const kept = this.#text.length - this.#pos;
    if (kept > 0) {
      this.#text = this.#text.slice(this.#pos) + piece;
      this.#pos = 0;
    } else {
      this.#text = piece;
      this.#pos = this.#skipLF && piece.charCodeAt(0) === LF ? 1 : 0;
    }
    this.#skipLF = false;
    this.#searchFrom = this.#partial ? kept : 0;
    this.#partial = false;
    this.#lf = -2;
    this.#cr = -2;
  }

  /** The next complete event of the text fed so far, or undefined when more text is needed. */
  next(): SseEvent | undefined {
    const text = this.#text;
    const length = text.length;
    let start = this.#pos;
    while (start < length) {
      let lf = this.#lf;
      let cr = this.#cr;
      if (lf !== -1 && lf < start) lf = this.#lf = text.indexOf('\n', Math.max(start, this.#searchFrom));
      if (cr !== -1 && cr < start) cr = this.#cr = text.indexOf('\r', Math.max(start, this.#searchFrom));
      let end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      if (end === -1) {
        this.#partial = true;
        break;
      }
      const line = text.slice(start, end);
      if (end === cr) {
        if (end + 1 === length) this.#skipLF = true;
        else if (lf === end + 1) end++;
      }
      start = end + 1;
      if (line.length === 0) {
        if (!this.#hasData) {
          this.#reset();
          continue;
        }
        const event: SseEvent = { event: this.#event, data: this.#data };
        this.#reset();
        this.#pos = start;
        return event;
      }
      this.#field(line);
    }
    this.#pos = start;
    return undefined;
  }

  /** The stream ended: an event that was not closed by a blank line is dropped. */
  end(): void {
    this.#text = '';
    this.#pos = 0;
    this.#partial = false;
    this.#skipLF = false;
    this.#reset();
  }

  #field(line: string): void {
    // The common line first: "data: {...}".
    if (line.startsWith('data: ')) {
      this.#addData(line.slice(6));
      return;
    }
    if (line.charCodeAt(0) === COLON) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    if (field === 'data') this.#addData(value);
    else if (field === 'event') this.#event = value;
  }

  #addData(value: string): void {
    this.#data = this.#hasData ? `${this.#data}\n${value}` : value;
    this.#hasData = true;
  }

  #reset(): void {
    this.#event = null;
    this.#data = '';
    this.#hasData = false;
  }
}
