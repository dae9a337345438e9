import { PAGE_SCRIPT_COMMON } from '../page-script-common.js';
import { GRAPH_ANSWER_SCRIPT } from './graph-playground-answer-script.js';
import { GRAPH_PANEL_SCRIPT } from './graph-playground-panel-script.js';
import { GRAPH_RUN_VIEW_SCRIPT } from './graph-playground-run-script.js';

/** The page's state and small helpers (the first fragment after the shared ones). */
const STATE_SCRIPT = String.raw`
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

`;

/**
 * The graph playground's script (inline, same-origin requests only). It draws the graph from
 * `/schema` (nodes with their kind and edges, parallel members and subgraph nodes indented),
 * POSTs a prompt to `/stream` and follows the events: each node pending → running → done, failed,
 * skipped or waiting on a question, parallel branches side by side, routing decisions, each agent
 * node's streamed text and tool calls, usage and cost, the final answer. An interrupted run shows
 * its questions (prompt and payload) with a form; the answer goes to `/resume` with `stream: true`
 * and the same view goes on. A thread id reopens a thread's pending question after a reload.
 * Untrusted text (model output, prompts, payloads, errors) is only ever set as `textContent`.
 *
 * Built from the shared helpers, the page state, then the panel, run view and answer fragments.
 */
export const GRAPH_PLAYGROUND_SCRIPT = PAGE_SCRIPT_COMMON + STATE_SCRIPT + GRAPH_PANEL_SCRIPT + GRAPH_RUN_VIEW_SCRIPT + GRAPH_ANSWER_SCRIPT;
