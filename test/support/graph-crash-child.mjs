// The child of a crash trial (test/support/graph-crash.ts): runs the crash graph on the built
// library with a checkpoint store and prints a line after every node, until it is killed.
import { AgentGraph, openCheckpointStore } from '../../dist/lib/graph/index.js';
import { crashGraph } from './graph-crash-graph.mjs';

const [storeUrl, threadId, effects] = process.argv.slice(2);
const store = await openCheckpointStore(storeUrl);
await crashGraph(AgentGraph, effects).run('go', {
  threadId,
  checkpointStore: store,
  observers: [{ onNodeEnd: (e) => void process.stdout.write(`${e.node}\n`) }],
});
await store.close();
