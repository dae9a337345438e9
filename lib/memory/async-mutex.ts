/**
 * Runs async work one piece at a time, in call order: `run(fn)` starts `fn` once every earlier
 * `run` has settled (fulfilled or rejected).
 */
export class AsyncMutex {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T> | T): Promise<T> {
    const result = this.#tail.then(fn, fn);
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
