/**
 * Counts consecutive failures; after `threshold` of them the circuit is open (skip this provider)
 * until `cooldownMs` have passed. A success closes it and resets the count.
 */
export class CircuitBreaker {
  #failures = 0;
  #openUntil = 0;

  constructor(
    private readonly threshold: number,
    private readonly cooldownMs: number,
    private readonly now: () => number,
  ) {}

  /** Consecutive failures so far. */
  get failures(): number {
    return this.#failures;
  }

  isOpen(): boolean {
    return this.#openUntil > this.now();
  }

  success(): void {
    this.#failures = 0;
    this.#openUntil = 0;
  }

  failure(): void {
    this.#failures += 1;
    if (this.#failures >= this.threshold) this.#openUntil = this.now() + this.cooldownMs;
  }
}
