/** Google's error object, as an error response or an in-stream error event carries it. */
export interface GoogleErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: { '@type'?: string; retryDelay?: string; reason?: string }[];
}

/** What one step of the scan gives: bytes to pass on unchanged (in order), and the error event once one is complete. */
export interface ScanStep {
  forward: Uint8Array[];
  error?: GoogleErrorBody;
}

const LF = 0x0a;
const CR = 0x0d;
/** Bytes of a line kept back until the line is known not to start an error event. */
const HEAD = 32;
const DATA = [0x64, 0x61, 0x74, 0x61, 0x3a]; // data:
const ERROR_KEY = [0x22, 0x65, 0x72, 0x72, 0x6f, 0x72, 0x22]; // "error"

const isBlank = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x09 || byte === CR || byte === LF;

/**
 * Whether a line (its first `length` bytes) opens an error event: `data: {"error"` (SSE framing)
 * or `{"error"` (the object as a bare line). `yes`, `no`, or `more` when the bytes so far could
 * still become one. Most lines are ruled out by their first byte or after `data: {"`.
 */
function classify(head: Uint8Array, length: number): 'yes' | 'no' | 'more' {
  let i = 0;
  if (length === 0) return 'more';
  if (head[0] === DATA[0]) {
    for (const byte of DATA) {
      if (i >= length) return 'more';
      if (head[i++] !== byte) return 'no';
    }
    while (i < length && isBlank(head[i])) i++;
    if (i >= length) return 'more';
  }
  if (head[i++] !== 0x7b) return 'no'; // {
  while (i < length && isBlank(head[i])) i++;
  for (const byte of ERROR_KEY) {
    if (i >= length) return 'more';
    if (head[i++] !== byte) return 'no';
  }
  return 'yes';
}

/** The JSON payload of an event: its `data:` lines (SSE: one optional space after the colon, lines joined by LF), else its text. */
function payloadOf(event: string): string {
  const lines: string[] = [];
  for (const raw of event.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.startsWith('data:')) lines.push(line.startsWith('data: ') ? line.slice(6) : line.slice(5));
  }
  return lines.length > 0 ? lines.join('\n') : event;
}

/** The error object of an event, when the event is `{"error": {…}}` JSON. */
function errorOf(bytes: readonly Uint8Array[]): GoogleErrorBody | undefined {
  try {
    const parsed = JSON.parse(payloadOf(Buffer.concat(bytes).toString('utf8'))) as { error?: unknown };
    return typeof parsed === 'object' && parsed !== null && typeof parsed.error === 'object' && parsed.error !== null ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds an error event (`data: {"error": {…}}`, or the object as a bare line) in a Gemini SSE
 * body: `@google/genai` 1.52 turns the `data:` form into an empty response (it only recognises an
 * error chunk that is bare JSON, and only when a network read holds exactly that). Bytes pass on
 * unchanged, each chunk as one uncopied piece, except a line cut by a chunk boundary before its
 * first 32 bytes rule out an error (those bytes go on as a small piece of their own) and the lines
 * of an error event, held back from the SDK. An event that is not an error object after all
 * (malformed JSON) is passed on as it was, for the SDK to fail on. Cost per chunk: a native
 * newline search per line, and a few byte comparisons at the start of each line.
 */
export class SseErrorScanner {
  readonly #head = new Uint8Array(HEAD);
  #headLength = 0;
  /** `head`: classifying the current line; `plain`: passing it on; `error`: holding back an error event. */
  #state: 'head' | 'plain' | 'error' = 'head';
  /** Held-back bytes of the error event so far. */
  #held: Uint8Array[] = [];
  /** In an error event: whether the next byte starts a line. */
  #lineStart = false;
  #done = false;

  /** Scans the next chunk of the body. */
  push(chunk: Uint8Array): ScanStep {
    const step: ScanStep = { forward: [] };
    if (this.#done) return step;
    let pos = 0;
    // Start of the bytes of this chunk not yet passed on or held back: passed on as one piece.
    let passFrom = 0;
    while (pos < chunk.length) {
      if (this.#state === 'plain') {
        const newline = chunk.indexOf(LF, pos);
        if (newline < 0) {
          pos = chunk.length;
          break;
        }
        pos = newline + 1;
        this.#state = 'head';
        this.#headLength = 0;
        continue;
      }
      if (this.#state === 'head') {
        // Bytes of this line held from earlier chunks (a line cut by a chunk boundary).
        const carried = this.#headLength;
        const lineStart = pos;
        const newline = chunk.indexOf(LF, pos);
        const lineEnd = newline < 0 ? chunk.length : newline;
        const take = Math.min(lineEnd - pos, HEAD - this.#headLength);
        this.#head.set(chunk.subarray(pos, pos + take), this.#headLength);
        this.#headLength += take;
        pos += take;
        const verdict = classify(this.#head, this.#headLength);
        if (verdict === 'yes') {
          if (lineStart > passFrom) step.forward.push(chunk.subarray(passFrom, lineStart));
          this.#held = [this.#head.slice(0, this.#headLength)];
          this.#state = 'error';
          this.#lineStart = false;
          passFrom = pos;
        } else if (verdict === 'no' || pos === newline || this.#headLength === HEAD) {
          // Not an error line: the bytes held from earlier chunks go on; this chunk's stay in its piece.
          if (carried > 0) step.forward.push(this.#head.slice(0, carried));
          this.#state = 'plain';
        } else {
          // Undecided, and the chunk ended mid-line: the line's bytes wait in the head.
          if (lineStart > passFrom) step.forward.push(chunk.subarray(passFrom, lineStart));
          passFrom = pos;
        }
        continue;
      }
      // An error event: held back line by line, tried as JSON after each piece.
      const newline = chunk.indexOf(LF, pos);
      const lineEnd = newline < 0 ? chunk.length : newline + 1;
      const segment = chunk.subarray(pos, lineEnd);
      const blank = this.#lineStart && newline >= 0 && (segment.length === 1 || (segment.length === 2 && segment[0] === CR));
      this.#held.push(segment);
      pos = lineEnd;
      passFrom = pos;
      this.#lineStart = newline >= 0;
      const error = errorOf(this.#held);
      if (error) {
        this.#done = true;
        step.error = error;
        return step;
      }
      if (blank) {
        // The whole event is not an error object: pass it on unchanged, for the SDK to judge.
        step.forward.push(...this.#held);
        this.#held = [];
        this.#state = 'head';
        this.#headLength = 0;
      }
    }
    if (pos > passFrom) step.forward.push(chunk.subarray(passFrom, pos));
    return step;
  }

  /** The end of the body: bytes still held back, or the error event the body ended with. */
  end(): ScanStep {
    const step: ScanStep = { forward: [] };
    if (this.#done) return step;
    this.#done = true;
    if (this.#state === 'error') {
      const error = errorOf(this.#held);
      if (error) step.error = error;
      else step.forward.push(...this.#held);
    } else if (this.#state === 'head' && this.#headLength > 0) {
      step.forward.push(this.#head.slice(0, this.#headLength));
    }
    return step;
  }
}
