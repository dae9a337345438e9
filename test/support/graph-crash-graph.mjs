// The 10-node graph of the crash trial (test/support/graph-crash.ts), in plain JavaScript so that
// the child process runs it on the built library (dist/) with no TypeScript loader (fast start).
import { appendFileSync } from 'node:fs';

export const CRASH_NODES = Array.from({ length: 10 }, (_, i) => `n${i}`);

/**
 * Node i appends its name to `effects` (its side effect) and sets data[n_i] from the previous
 * node's value. `AgentGraph` is the class to build with (the sources' or dist's).
 */
export function crashGraph(AgentGraph, effects) {
  const graph = new AgentGraph({ name: 'crash' });
  CRASH_NODES.forEach((name, i) => {
    graph.addNode(
      name,
      async (state) => {
        appendFileSync(effects, `${name}\n`);
        // Let the kill land anywhere: between the side effect and the checkpoint too.
        await new Promise((resolve) => setImmediate(resolve));
        const previous = i === 0 ? 1 : state.data[CRASH_NODES[i - 1]];
        return { data: { [name]: previous * 3 + i }, output: `${name} done` };
      },
      i + 1 < CRASH_NODES.length ? { next: CRASH_NODES[i + 1] } : {},
    );
  });
  return graph.setEntry('n0');
}
