import { Pipeline, type Step } from './step.js';

/**
 * Joins steps into a pipeline, each running on the previous one's output (the spec's
 * `a | b | c`). Typed end to end: `pipe(a, b)` only compiles when `a`'s output is `b`'s input.
 */
export function pipe<A, B, C>(a: Step<A, B>, b: Step<B, C>): Pipeline<A, C>;
export function pipe<A, B, C, D>(a: Step<A, B>, b: Step<B, C>, c: Step<C, D>): Pipeline<A, D>;
export function pipe<A, B, C, D, E>(a: Step<A, B>, b: Step<B, C>, c: Step<C, D>, d: Step<D, E>): Pipeline<A, E>;
export function pipe<A, B, C, D, E, F>(a: Step<A, B>, b: Step<B, C>, c: Step<C, D>, d: Step<D, E>, e: Step<E, F>): Pipeline<A, F>;
export function pipe<A, B, C, D, E, F, G>(a: Step<A, B>, b: Step<B, C>, c: Step<C, D>, d: Step<D, E>, e: Step<E, F>, f: Step<F, G>): Pipeline<A, G>;
export function pipe<A, B, C, D, E, F, G, H>(a: Step<A, B>, b: Step<B, C>, c: Step<C, D>, d: Step<D, E>, e: Step<E, F>, f: Step<F, G>, g: Step<G, H>): Pipeline<A, H>;
export function pipe<A, B, C, D, E, F, G, H, J>(a: Step<A, B>, b: Step<B, C>, c: Step<C, D>, d: Step<D, E>, e: Step<E, F>, f: Step<F, G>, g: Step<G, H>, h: Step<H, J>): Pipeline<A, J>;
export function pipe<A, B, C, D, E, F, G, H, J, K>(a: Step<A, B>, b: Step<B, C>, c: Step<C, D>, d: Step<D, E>, e: Step<E, F>, f: Step<F, G>, g: Step<G, H>, h: Step<H, J>, i: Step<J, K>): Pipeline<A, K>;
export function pipe<A, B, C, D, E, F, G, H, J, K, L>(a: Step<A, B>, b: Step<B, C>, c: Step<C, D>, d: Step<D, E>, e: Step<E, F>, f: Step<F, G>, g: Step<G, H>, h: Step<H, J>, i: Step<J, K>, j: Step<K, L>): Pipeline<A, L>;
/** More than ten steps: typed only at the ends (join smaller typed pipelines to keep the checks). */
export function pipe(...steps: Step<unknown, unknown>[]): Pipeline<unknown, unknown>;
export function pipe(...steps: Step<unknown, unknown>[]): Pipeline<unknown, unknown> {
  return Pipeline.of(steps);
}
