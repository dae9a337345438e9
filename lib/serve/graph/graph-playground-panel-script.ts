/**
 * The graph playground's graph panel (a fragment of its script): one row per node from `/schema`,
 * with kind, badges and edges, parallel members and subgraph nodes indented; `setNode` sets a row's state.
 */
export const GRAPH_PANEL_SCRIPT = String.raw`
// ---- the graph panel ----

function addNodes(graph, prefix, depth, parent) {
  const next = {}, routers = {};
  for (const e of graph.edges) (next[e.from] = next[e.from] || []).push(target(e.to));
  for (const c of graph.conditionalEdges) routers[c.from] = c.targets ? c.targets.map(target) : null;
  for (const node of graph.nodes) addNode(node, prefix, depth, parent, graph.entry === node.name, next[node.name] || [], node.name in routers ? { targets: routers[node.name] } : null);
}
function addNode(node, prefix, depth, parent, entry, next, router) {
  const key = prefix + node.name;
  (names[prefix] = names[prefix] || {})[node.name] = key;
  const row = el("li", "node");
  row.dataset.node = key;
  row.dataset.status = "pending";
  row.dataset.depth = String(Math.min(depth, 4));
  const line = el("div", "line");
  line.appendChild(el("span", "glyph", STATES.pending));
  line.appendChild(el("span", "name", node.name));
  const kind = node.kind === "agent" ? "agent " + node.agent : node.kind === "parallel" ? "parallel (" + node.merge + ")" : node.kind === "subgraph" ? "subgraph " + node.graph.name : "function";
  line.appendChild(el("span", "kind", kind));
  if (entry) line.appendChild(el("span", "badge", "entry"));
  if (node.interruptBefore) line.appendChild(el("span", "badge", "asks first"));
  if (node.errorPolicy) line.appendChild(el("span", "badge", "on error: " + node.errorPolicy));
  row.appendChild(line);
  const edges = [];
  if (next.length) edges.push("→ " + next.join(", "));
  if (router) edges.push("⇢ " + (router.targets ? router.targets.join(" | ") : "any node") + " (router)");
  const sub = el("div", "sub");
  sub.appendChild(el("span", "edges", edges.join("  ")));
  sub.appendChild(el("span", "state", WORDS.pending));
  row.appendChild(sub);
  nodeList.appendChild(row);
  rows.set(key, row);
  if (node.kind === "parallel") {
    groups[key] = (node.members || []).map((member) => prefix + member.name);
    for (const member of node.members || []) addNode(member, prefix, depth + 1, key, false, [], null);
  }
  if (node.kind === "subgraph" && node.graph) {
    subgraphs[key] = node.graph.name;
    addNodes(node.graph, key + "/", depth + 1, key);
  }
}
function setNode(key, status, note) {
  const row = rows.get(key);
  if (!row) return;
  row.dataset.status = status;
  row.querySelector(".glyph").textContent = STATES[status];
  row.querySelector(".state").textContent = WORDS[status] + (note ? " · " + note : "");
}
function resetNodes() { for (const key of rows.keys()) setNode(key, "pending"); }

async function loadSchema() {
  try {
    const res = await fetch("schema", { headers: headers() });
    const body = await res.json();
    if (!res.ok) { $("meta").textContent = body.error ? body.error.message : "HTTP " + res.status; return; }
    names = {}; subgraphs = {}; groups = {}; rows.clear(); nodeList.textContent = "";
    addNodes(body.graph, "", 0, null);
    $("graph-name").textContent = body.name;
    document.title = body.name + " · agentlib graph playground";
    $("meta").textContent = "graph · " + body.graph.nodes.length + " node" + (body.graph.nodes.length === 1 ? "" : "s") + " · entry " + body.graph.entry;
  } catch (e) { $("meta").textContent = "cannot reach the server: " + e.message; }
}

`;
