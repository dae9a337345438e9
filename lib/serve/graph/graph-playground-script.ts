import { PAGE_SCRIPT_COMMON } from '../page-script-common.js';

/**
 * The graph playground's script (inline, same-origin requests only). It draws the graph from
 * `/schema` (nodes with their kind and edges, parallel members and subgraph nodes indented),
 * POSTs a prompt to `/stream` and follows the events: each node pending → running → done, failed,
 * skipped or waiting on a question, parallel branches side by side, routing decisions, each agent
 * node's streamed text and tool calls, usage and cost, the final answer. An interrupted run shows
 * its questions (prompt and payload) with a form; the answer goes to `/resume` with `stream: true`
 * and the same view goes on. A thread id reopens a thread's pending question after a reload.
 * Untrusted text (model output, prompts, payloads, errors) is only ever set as `textContent`.
 */
export const GRAPH_PLAYGROUND_SCRIPT = PAGE_SCRIPT_COMMON + String.raw`
const transcript = $("transcript"), form = $("form"), prompt = $("prompt"), send = $("send"), stop = $("stop");
const threadInput = $("thread"), nodeList = $("nodes");
tokenInput.addEventListener("change", () => loadSchema());

const END = "__end__";
const STATES = { pending: "·", running: "⊷", done: "✓", failed: "x", skipped: "!", unreached: "–", interrupted: "?" };
const WORDS = { pending: "pending", running: "running", done: "done", failed: "failed", skipped: "skipped after an error", unreached: "not run", interrupted: "waiting for an answer" };
let controller = null;
/** Node key → its row in the graph panel. */
const rows = new Map();
/** Key prefix ("" at the top, "sub/" in subgraph sub) → node name → key. */
let names = {};
/** Subgraph node key → its child graph's name. */
let subgraphs = {};
/** Parallel group key → its members' keys. */
let groups = {};

function pretty(value) {
  if (typeof value === "string") return value;
  try { return JSON.stringify(value, null, 2); } catch (_) { return String(value); }
}
function target(name) { return name === END ? "END" : name; }
function busy(on) {
  send.disabled = on; stop.disabled = !on;
  for (const button of document.querySelectorAll(".question button")) button.disabled = on;
}

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

// ---- one run (and its resumes) in the transcript ----

function addUser(text) {
  const msg = el("div", "msg user");
  msg.appendChild(el("div", "who", "you"));
  msg.appendChild(el("div", "text", text));
  transcript.appendChild(msg);
}
function newRun(label) {
  const msg = el("div", "msg assistant run");
  const who = el("div", "who", label);
  const thread = el("span", "thread");
  who.appendChild(thread);
  msg.appendChild(who);
  const live = el("div", "live");
  msg.appendChild(live);
  transcript.appendChild(msg);
  scroll();
  return { msg, thread, live, childRuns: {}, running: [], cards: new Map(), group: null, tokens: 0, cost: 0, events: 0 };
}
function setThread(view, id) {
  view.threadId = id;
  view.thread.textContent = " · thread " + id;
  view.msg.dataset.thread = id;
}
function line(view, cls, text) {
  const node = el("div", cls, text);
  view.msg.insertBefore(node, view.live);
  scroll();
  return node;
}
function showError(view, type, message) {
  const box = line(view, "error", (type ? type + ": " : "") + message);
  box.setAttribute("role", "alert");
}

/** The key of node name of graph run ev (the top run, or a subgraph's run under its node). */
function keyOf(view, ev, name) {
  const prefix = ev.parentRunId === undefined ? "" : view.childRuns[ev.runId];
  return prefix === undefined || !names[prefix] ? undefined : names[prefix][name];
}
/** The key of the node an interrupt's path names (["review"], ["team", "critic"], ["sub", "ask"]). */
function pathKey(path) {
  let prefix = "";
  for (let i = 0; i < path.length - 1; i++) {
    const key = names[prefix] && names[prefix][path[i]];
    if (key !== undefined && subgraphs[key] !== undefined) prefix = key + "/";
  }
  return names[prefix] ? names[prefix][path[path.length - 1]] : undefined;
}
/** The key of the node a nested agent event belongs to (its node tag, at any level). */
function agentKey(view, name) {
  if (name === undefined) return undefined;
  if (rows.has(name)) return name;
  for (const map of Object.values(names)) if (map[name] !== undefined) return map[name];
  return undefined;
}
function card(view, key) {
  let c = view.cards.get(key);
  if (c) return c;
  c = el("section", "node-card");
  c.dataset.node = key;
  c.dataset.status = "running";
  c.setAttribute("aria-label", "node " + key);
  const head = el("div", "card-head");
  head.appendChild(el("span", "glyph", STATES.running));
  head.appendChild(el("span", "name", key));
  head.appendChild(el("span", "state", WORDS.running));
  c.appendChild(head);
  c.tools = new Map();
  c.current = null;
  place(view, c);
  view.cards.set(key, c);
  return c;
}
/** Puts a card where the run is now (after an answer, the node's work shows below the question). */
function place(view, c) {
  if (view.group && view.group.members.has(c.dataset.node)) view.group.box.appendChild(c);
  else view.msg.insertBefore(c, view.live);
}
function setCard(c, status, note) {
  c.dataset.status = status;
  c.querySelector(".card-head .glyph").textContent = STATES[status];
  c.querySelector(".card-head .state").textContent = WORDS[status] + (note ? " · " + note : "");
}
function liveUsage(view) {
  view.live.textContent = view.tokens + " tokens · $" + view.cost.toFixed(6) + " so far";
}

function handle(view, name, data) {
  if (name !== "error") view.events += 1;
  switch (name) {
    case "graph-start": {
      if (data.parentRunId === undefined) { view.runId = data.runId; break; }
      if (view.childRuns[data.runId] !== undefined) break;
      const owner = view.running.find((key) => subgraphs[key] === data.graph);
      if (owner !== undefined) view.childRuns[data.runId] = owner + "/";
      break;
    }
    case "node-start": {
      const key = keyOf(view, data, data.node);
      if (key === undefined) break;
      view.running = view.running.filter((k) => k !== key).concat([key]);
      setNode(key, "running");
      // A node entered again after an answer keeps its card; a node run again (a loop) gets a new one.
      const old = view.cards.get(key);
      if (old && old.dataset.status !== "running" && old.dataset.status !== "interrupted") view.cards.delete(key);
      else if (old) place(view, old);
      setCard(card(view, key), "running");
      break;
    }
    case "node-end": {
      const key = keyOf(view, data, data.node);
      if (key === undefined) break;
      view.running = view.running.filter((k) => k !== key);
      const seconds = (data.durationMs / 1000).toFixed(2) + " s";
      const c = card(view, key);
      if (data.skipped) {
        // It failed; its ErrorPolicy SKIP let the run go on.
        setNode(key, "skipped", seconds);
        setCard(c, "skipped", seconds);
        c.appendChild(el("div", "output failed", data.skipped.name + ": " + data.skipped.message));
        break;
      }
      setNode(key, "done", seconds);
      setCard(c, "done", seconds);
      if (!c.querySelector(".text") && data.output) c.appendChild(el("div", "output", short(data.output, 400)));
      break;
    }
    case "graph-error": {
      const key = data.node === undefined ? undefined : keyOf(view, data, data.node);
      if (key !== undefined) {
        view.running = view.running.filter((k) => k !== key);
        setNode(key, "failed");
        const c = card(view, key);
        setCard(c, "failed");
        c.appendChild(el("div", "output failed", data.error.name + ": " + data.error.message));
      }
      break;
    }
    case "graph-interrupt": {
      const key = keyOf(view, data, data.node);
      if (key === undefined) break;
      view.running = view.running.filter((k) => k !== key);
      setNode(key, "interrupted");
      setCard(card(view, key), "interrupted");
      break;
    }
    case "graph-resume": {
      if (data.parentRunId === undefined) view.runId = data.runId;
      const key = keyOf(view, data, data.node);
      if (key === undefined) break;
      view.running = view.running.filter((k) => k !== key).concat([key]);
      setNode(key, "running");
      const c = card(view, key);
      place(view, c);
      setCard(c, "running");
      break;
    }
    case "graph-routing": {
      const from = keyOf(view, data, data.from);
      if (from === undefined) break;
      const to = data.to === END ? "END" : keyOf(view, data, data.to) || data.to;
      const route = line(view, "route", from + " → " + to + (data.conditional ? "  (router)" : ""));
      route.dataset.from = from;
      route.dataset.to = to;
      break;
    }
    case "parallel-start": {
      const members = data.nodes.map((n) => keyOf(view, data, n)).filter((k) => k !== undefined);
      if (members.length === 0) break;
      const box = el("div", "parallel");
      box.setAttribute("aria-label", "parallel branches: " + members.join(", "));
      line(view, "route", "parallel: " + members.join(" · "));
      view.msg.insertBefore(box, view.live);
      view.group = { box, members: new Set(members) };
      break;
    }
    case "parallel-end": view.group = null; break;
    case "stall-detected": line(view, "notice", "stall: " + data.node + " changed nothing " + data.stalls + " time(s) in a row"); break;
    case "loop-detected": line(view, "notice", "loop: " + data.node + " saw the same state twice"); break;
    case "budget-exceeded": line(view, "notice", "budget exceeded"); break;
    case "usage": {
      view.tokens += data.usage.totalTokens;
      view.cost += data.usage.costUsd;
      liveUsage(view);
      break;
    }
    case "text-delta": {
      const key = agentKey(view, data.node);
      if (key === undefined) break;
      const c = card(view, key);
      if (c.current === null) { c.current = el("div", "text"); c.appendChild(c.current); }
      c.current.textContent += data.text;
      break;
    }
    case "tool-start": {
      const key = agentKey(view, data.node);
      if (key === undefined) break;
      const c = card(view, key);
      c.current = null;
      const tool = el("div", "tool-card");
      tool.dataset.status = "running";
      tool.dataset.tool = data.toolName;
      tool.appendChild(el("span", "glyph", "⊷ "));
      tool.appendChild(el("span", "call", data.toolName + " " + short(data.args, 300)));
      c.appendChild(tool);
      c.tools.set(data.callId, tool);
      break;
    }
    case "tool-end":
    case "tool-error": {
      const key = agentKey(view, data.node);
      if (key === undefined) break;
      const tool = card(view, key).tools.get(data.callId);
      if (!tool) break;
      const ok = name === "tool-end";
      tool.dataset.status = ok ? "ok" : "error";
      tool.querySelector(".glyph").textContent = ok ? "✓ " : "x ";
      tool.appendChild(el("span", "result", ok ? "→ " + short(data.result, 500) + " · " + data.durationMs + " ms" : "→ " + data.error.message));
      break;
    }
    case "approval-response": {
      const key = agentKey(view, data.node);
      if (key === undefined || data.approved) break;
      const c = card(view, key);
      c.current = null;
      const tool = el("div", "tool-card");
      tool.dataset.status = "denied";
      tool.appendChild(el("span", "glyph", "? "));
      tool.appendChild(el("span", "call", data.toolName + " not approved" + (data.feedback ? ": " + data.feedback : "")));
      c.appendChild(tool);
      break;
    }
    case "result": finish(view, data); break;
    case "error": {
      if (data.parentRunId !== undefined) {
        // A nested agent's own error event (its node decides what follows: retry, skip, fail).
        const key = agentKey(view, data.node);
        if (key !== undefined) card(view, key).appendChild(el("div", "output failed", data.error.name + ": " + data.error.message));
        break;
      }
      for (const key of view.running) setNode(key, "failed");
      view.running = [];
      showError(view, data.error.type, data.error.message + (data.status ? " (HTTP " + data.status + ")" : ""));
      break;
    }
    default: break;
  }
  scroll();
}

function finish(view, r) {
  setThread(view, r.thread_id);
  view.running = [];
  view.live.textContent = "";
  const u = r.usage;
  const usage = line(view, "usage", r.steps + " step" + (r.steps === 1 ? "" : "s") + " · " + u.total_tokens + " tokens (" + u.prompt_tokens + " in, " + u.completion_tokens + " out) · $" + u.cost_usd.toFixed(6) + " · " + r.status);
  const old = document.getElementById("usage");
  if (old) old.removeAttribute("id");
  usage.id = "usage";
  for (const q of view.msg.querySelectorAll(".question:not(.answered)")) q.remove();
  markHistory(r.history);
  if (r.status === "completed") {
    for (const [key, row] of rows) if (row.dataset.status === "pending") setNode(key, "unreached");
    const answer = el("div", "final");
    answer.appendChild(el("div", "who", "answer"));
    answer.appendChild(el("div", "text", r.content));
    view.msg.insertBefore(answer, view.live);
    answer.id = "final";
    const older = document.querySelectorAll(".final");
    for (const f of older) if (f !== answer) f.removeAttribute("id");
    prompt.focus();
  } else if (r.interrupted) {
    // Nodes around the question (a subgraph, a parallel group) wait with it.
    for (const [key, row] of rows) if (row.dataset.status === "running") setNode(key, "interrupted");
    for (const q of r.interrupts) { const key = pathKey(q.path); if (key !== undefined) setNode(key, "interrupted"); }
    let first = null;
    for (const q of r.interrupts) {
      const input = ask(view, q);
      if (!first) first = input;
    }
    if (first) first.focus();
  } else {
    line(view, "notice", "the run stopped: " + r.status);
  }
  scroll();
}

/** Nodes the thread ran before (an earlier request, another server) count as done. */
function markHistory(history) {
  for (const name of history || []) {
    const key = names[""] && names[""][name];
    if (key !== undefined && rows.get(key).dataset.status === "pending") setNode(key, "done");
  }
  // History names a group's members, not the group.
  for (const [key, members] of Object.entries(groups)) {
    if (rows.get(key).dataset.status === "pending" && members.every((m) => rows.get(m).dataset.status === "done")) setNode(key, "done");
  }
}

/** A question of an interrupted run: its prompt, its payload, and a form that answers it. */
function ask(view, q) {
  const box = el("form", "question");
  box.dataset.interrupt = q.id;
  box.setAttribute("aria-label", "question from node " + q.path.join(" / "));
  box.appendChild(el("div", "who", q.path.join(" / ") + " asks"));
  box.appendChild(el("div", "prompt-text", q.prompt));
  if (q.payload !== undefined) box.appendChild(el("pre", "payload", pretty(q.payload)));
  const row = el("div", "answer-row");
  const input = el("input", "answer");
  input.type = "text";
  input.setAttribute("aria-label", "your answer to: " + short(q.prompt, 200));
  input.placeholder = "your answer (Enter sends)";
  const asJson = el("input");
  asJson.type = "checkbox";
  const jsonLabel = el("label", "as-json");
  jsonLabel.appendChild(asJson);
  jsonLabel.appendChild(document.createTextNode(" JSON"));
  const button = el("button", "", "Answer");
  button.type = "submit";
  row.appendChild(input); row.appendChild(jsonLabel); row.appendChild(button);
  box.appendChild(row);
  box.appendChild(el("div", "hint", "interrupt " + q.id));
  box.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (controller !== null) return;
    let response = input.value;
    if (asJson.checked) {
      try { response = JSON.parse(input.value); } catch (err) { showError(view, "invalid_json", "the answer is not JSON: " + err.message); return; }
    }
    box.classList.add("answered");
    input.disabled = true; asJson.disabled = true;
    const ok = await consume(view, "resume", { interrupt_id: q.id, response, stream: true });
    if (!ok) { box.classList.remove("answered"); input.disabled = false; asJson.disabled = false; button.disabled = false; input.focus(); return; }
    row.remove();
    box.appendChild(el("div", "answered-text", "answered: " + pretty(response)));
  });
  view.msg.insertBefore(box, view.live);
  scroll();
  return input;
}

/** POSTs body to path and follows its events into view; false when the server refused the request. */
async function consume(view, path, body) {
  controller = new AbortController();
  busy(true);
  try {
    const res = await fetch(path, { method: "POST", headers: headers(), body: JSON.stringify(body), signal: controller.signal });
    if (!res.ok || !res.body) {
      const failure = await httpFailure(res);
      showError(view, failure.type, failure.message);
      return false;
    }
    // An error as the only frame: the server refused it (an unknown or already answered interrupt).
    view.events = 0;
    await readSse(res, (name, data) => handle(view, name, data));
    return view.events > 0;
  } catch (e) {
    if (e.name === "AbortError") showError(view, "", "stopped");
    else showError(view, "network_error", e.message);
    return true;
  } finally {
    controller = null;
    busy(false);
  }
}

async function run(text) {
  addUser(text);
  resetNodes();
  const view = newRun("graph");
  const body = { prompt: text };
  const thread = threadInput.value.trim();
  if (thread !== "") { body.thread_id = thread; threadInput.value = ""; setThread(view, thread); }
  await consume(view, "stream", body);
  if (controller === null && !view.msg.querySelector(".question:not(.answered)")) prompt.focus();
}

/** Reopens a thread: its latest checkpoint, and the form for its pending questions. */
async function openThread() {
  const id = threadInput.value.trim();
  if (id === "" || controller !== null) return;
  const view = newRun("thread");
  setThread(view, id);
  try {
    const res = await fetch("threads/" + encodeURIComponent(id) + "/checkpoints?limit=1", { headers: headers() });
    const body = await res.json();
    if (!res.ok) { showError(view, body.error ? body.error.type : "http_error", (body.error ? body.error.message : "") + " (HTTP " + res.status + ")"); return; }
    const latest = body.checkpoints[0];
    threadInput.value = "";
    resetNodes();
    const full = await fetch("checkpoints/" + encodeURIComponent(latest.id), { headers: headers() });
    if (full.ok) markHistory((await full.json()).state.history);
    line(view, "route", "latest checkpoint: step " + latest.step + (latest.node ? " after " + latest.node : "") + " · " + latest.status);
    if (latest.status === "interrupted" && latest.interrupts.length > 0) {
      for (const q of latest.interrupts) {
        const key = pathKey(q.path);
        if (key !== undefined) setNode(key, "interrupted");
      }
      let first = null;
      for (const q of latest.interrupts) { const input = ask(view, q); if (!first) first = input; }
      if (first) first.focus();
    } else {
      line(view, "notice", "nothing to answer on this thread");
    }
  } catch (e) { showError(view, "network_error", e.message); }
}

wirePromptForm(run);
$("open-thread").addEventListener("click", () => { openThread(); });
threadInput.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); openThread(); } });
loadSchema();
prompt.focus();
`;
