/**
 * Counts the frames Ink has drawn (wire `tick` to Ink's `onRender` option). A frame counted after
 * a component first rendered shows that component on the terminal: the approval prompt takes no
 * key before then, so a key typed before the prompt could be seen cannot answer it.
 */
export class FrameCounter {
  #count = 0;

  /** Frames drawn so far. */
  get count(): number {
    return this.#count;
  }

  /** Called once per frame drawn. */
  readonly tick = (): void => {
    this.#count += 1;
  };
}
