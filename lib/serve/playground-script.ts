import { PAGE_SCRIPT_COMMON } from './page-script-common.js';

/**
 * The playground's script (inline, same-origin requests only). It POSTs to /stream, parses the
 * event stream as it arrives and renders text deltas, tool cards (running ⊷, done ✓, failed x,
 * not approved ?), usage and cost from `run-end`, and errors (HTTP JSON errors and `error` events).
 */
export const PLAYGROUND_SCRIPT = PAGE_SCRIPT_COMMON + `
const transcript = $("transcript"), form = $("form"), prompt = $("prompt"), send = $("send"), stop = $("stop");
const approveInput = $("approve"), sessionBox = $("keep-session");
tokenInput.addEventListener("change", () => loadInfo());
let sessionId = newSessionId();
let controller = null;

function newSessionId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return "pg-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function loadInfo() {
  try {
    const res = await fetch("health", { headers: headers() });
    const body = await res.json();
    if (!res.ok) { $("meta").textContent = body.error ? body.error.message : "HTTP " + res.status; return; }
    $("agent-name").textContent = body.agent;
    document.title = body.agent + " · agentlib playground";
    $("meta").textContent = body.provider + " · " + body.model + " · tools: " + (body.tools.length ? body.tools.join(", ") : "none");
  } catch (e) { $("meta").textContent = "cannot reach the server: " + e.message; }
}

function addMessage(role, text) {
  const msg = el("div", "msg " + role);
  msg.appendChild(el("div", "who", role === "user" ? "you" : "agent"));
  const body = el("div", "text", text);
  msg.appendChild(body);
  transcript.appendChild(msg);
  scroll();
  return { msg, body };
}

function showError(view, type, message) {
  const box = el("div", "error", (type ? type + ": " : "") + message);
  box.setAttribute("role", "alert");
  view.msg.appendChild(box);
  scroll();
}

function handle(view, cards, name, data) {
  switch (name) {
    case "text-delta": {
      if (view.current === null) { view.current = el("div", "text"); view.msg.appendChild(view.current); }
      view.current.textContent += data.text;
      break;
    }
    case "tool-start": {
      view.current = null;
      const card = startToolCard(data);
      view.msg.appendChild(card);
      cards.set(data.callId, card);
      break;
    }
    case "tool-end":
    case "tool-error": {
      let card = cards.get(data.callId);
      if (!card) {
        card = el("div", "tool-card");
        card.appendChild(el("span", "glyph"));
        card.appendChild(el("span", "call", data.toolName + " " + short(data.args, 300)));
        view.msg.appendChild(card);
      }
      endToolCard(card, name === "tool-end", data);
      break;
    }
    case "approval-response": {
      if (!data.approved) {
        view.msg.appendChild(deniedToolCard(data.toolName + " not approved" + (data.feedback ? ": " + data.feedback : "") + " (add it to Approve tools to allow it)"));
      }
      break;
    }
    case "run-end": {
      const u = data.usage;
      const line = el("div", "usage", data.iterations + " iteration" + (data.iterations === 1 ? "" : "s") + " · " + u.total_tokens + " tokens (" + u.prompt_tokens + " in, " + u.completion_tokens + " out) · $" + u.cost_usd.toFixed(6) + (data.status !== "completed" ? " · stopped: " + data.status : ""));
      line.id = "usage";
      const old = document.getElementById("usage");
      if (old) old.removeAttribute("id");
      view.msg.appendChild(line);
      if (view.msg.querySelectorAll(".text").length === 1 && data.content) view.body.textContent = data.content;
      break;
    }
    case "error": showError(view, data.error.type, data.error.message); break;
    default: break;
  }
  scroll();
}

async function run(text) {
  addMessage("user", text);
  const view = addMessage("assistant", "");
  view.current = view.body;
  const cards = new Map();
  const body = { prompt: text };
  if (sessionBox.checked) body.session_id = sessionId;
  const approve = approveInput.value.split(",").map((s) => s.trim()).filter(Boolean);
  if (approve.length) body.approve = approve;
  controller = new AbortController();
  send.disabled = true; stop.disabled = false;
  try {
    const res = await fetch("stream", { method: "POST", headers: headers(), body: JSON.stringify(body), signal: controller.signal });
    if (!res.ok || !res.body) {
      const failure = await httpFailure(res);
      showError(view, failure.type, failure.message);
      return;
    }
    await readSse(res, (name, data) => handle(view, cards, name, data));
  } catch (e) {
    if (e.name === "AbortError") showError(view, "", "stopped");
    else showError(view, "network_error", e.message);
  } finally {
    controller = null;
    send.disabled = false; stop.disabled = true;
    prompt.focus();
  }
}

wirePromptForm(run);
$("new-chat").addEventListener("click", () => { sessionId = newSessionId(); transcript.textContent = ""; prompt.focus(); });
loadInfo();
prompt.focus();
`;
