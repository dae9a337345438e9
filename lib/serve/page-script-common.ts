/**
 * What both playground scripts (the agent's and the graph's) start with: strict mode, `$`, the
 * token field (kept in sessionStorage; each page adds what a change reloads), request `headers()`,
 * `el` (untrusted text only ever as textContent), `short`, `scroll` (of the page's `transcript`),
 * `httpFailure` (the `{ type, message }` of a refused request) and `readSse` (a fetch response's
 * server-sent events, each frame to `onFrame(name, data)` as it arrives), and `wirePromptForm(run)`
 * (the page's `form`, `prompt` and `stop`: Enter sends, Shift+Enter a new line, Stop aborts the
 * page's `controller`), and the tool cards of a run: `startToolCard(data)` (a running call, from
 * tool-start), `endToolCard(card, ok, data)` (its result or error), `deniedToolCard(text)`.
 */
export const PAGE_SCRIPT_COMMON = String.raw`
"use strict";
const $ = (id) => document.getElementById(id);
const tokenInput = $("token");
tokenInput.value = sessionStorage.getItem("agentlib.token") || "";
tokenInput.addEventListener("change", () => sessionStorage.setItem("agentlib.token", tokenInput.value));

function headers() {
  const h = { "content-type": "application/json" };
  if (tokenInput.value.trim() !== "") h.authorization = "Bearer " + tokenInput.value.trim();
  return h;
}
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}
function short(value, max) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}
function scroll() { transcript.scrollTop = transcript.scrollHeight; }

async function httpFailure(res) {
  let type = "http_error", message = "HTTP " + res.status;
  try { const j = await res.json(); if (j.error) { type = j.error.type; message = j.error.message + " (HTTP " + res.status + ")"; } } catch (_) {}
  return { type, message };
}

async function readSse(res, onFrame) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
    let cut;
    while ((cut = buffer.indexOf("\n\n")) !== -1) {
      const frame = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let name = "message", data = "";
      for (const part of frame.split("\n")) {
        if (part.startsWith("event:")) name = part.slice(6).trim();
        else if (part.startsWith("data:")) data += (data ? "\n" : "") + part.slice(5).replace(/^ /, "");
      }
      if (data !== "") onFrame(name, JSON.parse(data));
    }
  }
}

function wirePromptForm(run) {
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = prompt.value.trim();
    if (text === "" || controller !== null) return;
    prompt.value = "";
    run(text);
  });
  prompt.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); form.requestSubmit(); }
  });
  stop.addEventListener("click", () => { if (controller) controller.abort(); });
}

function startToolCard(data) {
  const card = el("div", "tool-card");
  card.dataset.status = "running";
  card.dataset.tool = data.toolName;
  card.appendChild(el("span", "glyph", "⊷ "));
  card.appendChild(el("span", "call", data.toolName + " " + short(data.args, 300)));
  return card;
}
function endToolCard(card, ok, data) {
  card.dataset.status = ok ? "ok" : "error";
  card.querySelector(".glyph").textContent = ok ? "✓ " : "x ";
  card.appendChild(el("span", "result", ok ? "→ " + short(data.result, 500) + " · " + data.durationMs + " ms" : "→ " + data.error.message));
}
function deniedToolCard(text) {
  const card = el("div", "tool-card");
  card.dataset.status = "denied";
  card.appendChild(el("span", "glyph", "? "));
  card.appendChild(el("span", "call", text));
  return card;
}
`;
