/**
 * The graph playground's run view (a fragment of its script): one card per node run, routing lines,
 * streamed text and tool cards, live usage; `handle` folds each server-sent event into it.
 */
export const GRAPH_RUN_VIEW_SCRIPT = String.raw`
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
      const tool = startToolCard(data);
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
      endToolCard(tool, name === "tool-end", data);
      break;
    }
    case "approval-response": {
      const key = agentKey(view, data.node);
      if (key === undefined || data.approved) break;
      const c = card(view, key);
      c.current = null;
      c.appendChild(deniedToolCard(data.toolName + " not approved" + (data.feedback ? ": " + data.feedback : "")));
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

`;
