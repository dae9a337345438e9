/**
 * The graph playground's run end, questions and wiring (the last fragment of its script): a
 * finished or interrupted run, the form that answers a question through `/resume`, POSTing and
 * following a stream, reopening a thread, and the page's event handlers.
 */
export const GRAPH_ANSWER_SCRIPT = String.raw`
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
