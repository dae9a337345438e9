import { useCallback, useRef } from 'react';

/** Up/Down through earlier inputs, shell style: the line being typed comes back after the newest entry. */
export class InputHistory {
  readonly #entries: string[] = [];
  #cursor = 0;
  #draft = '';

  constructor(readonly limit = 200) {}

  get entries(): readonly string[] {
    return this.#entries;
  }

  add(line: string): void {
    if (line.trim() !== '' && this.#entries.at(-1) !== line) this.#entries.push(line);
    if (this.#entries.length > this.limit) this.#entries.shift();
    this.#cursor = this.#entries.length;
    this.#draft = '';
  }

  /** The older entry (Up), or undefined at the oldest. */
  previous(current: string): string | undefined {
    if (this.#cursor === 0) return undefined;
    if (this.#cursor === this.#entries.length) this.#draft = current;
    this.#cursor -= 1;
    return this.#entries[this.#cursor];
  }

  /** The newer entry (Down); past the newest, the draft that was being typed. */
  next(): string | undefined {
    if (this.#cursor >= this.#entries.length) return undefined;
    this.#cursor += 1;
    return this.#cursor === this.#entries.length ? this.#draft : this.#entries[this.#cursor];
  }
}

/** One InputHistory for the life of the component. */
export function useInputHistory(): { add: (line: string) => void; previous: (current: string) => string | undefined; next: () => string | undefined } {
  const history = useRef<InputHistory>(null);
  history.current ??= new InputHistory();
  const get = (): InputHistory => history.current as InputHistory;
  return {
    add: useCallback((line: string) => get().add(line), []),
    previous: useCallback((current: string) => get().previous(current), []),
    next: useCallback(() => get().next(), []),
  };
}
