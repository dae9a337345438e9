/**
 * A promise the test resolves: work that must wait for a point the test chooses awaits `opened`,
 * and the test calls `open()` at that point. Orders work without fixed sleeps.
 */
export interface Gate<T = void> {
  readonly opened: Promise<T>;
  open(value: T): void;
}

/** A closed gate (see Gate). */
export function gate<T = void>(): Gate<T> {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { opened, open };
}
