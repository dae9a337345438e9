import { PLAYGROUND_STYLE } from '../playground-style.js';

/** The graph playground's stylesheet: the agent playground's, plus the graph panel, node cards and questions. */
export const GRAPH_PLAYGROUND_STYLE = `${PLAYGROUND_STYLE}
.split { flex: 1; display: flex; min-height: 0; }
aside { width: 330px; flex: none; overflow-y: auto; padding: 12px 14px; border-right: 1px solid var(--line); background: var(--panel); }
aside h2 { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; margin: 0 0 8px; }
#nodes { list-style: none; margin: 0; padding: 0; font-size: 13px; }
.node { padding: 4px 6px; border-radius: 6px; margin-bottom: 2px; border-left: 3px solid transparent; }
.node[data-depth="1"] { margin-left: 16px; } .node[data-depth="2"] { margin-left: 32px; } .node[data-depth="3"] { margin-left: 48px; } .node[data-depth="4"] { margin-left: 64px; }
.node .line, .card-head { display: flex; gap: 6px; align-items: baseline; flex-wrap: wrap; }
.node .name, .card-head .name { font-weight: 600; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.node .kind, .node .edges { color: var(--muted); font-size: 12px; }
.node .sub { display: flex; gap: 8px; margin-left: 20px; }
.node .edges { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.badge { font-size: 11px; border: 1px solid var(--line); border-radius: 8px; padding: 0 6px; color: var(--muted); }
.state { margin-left: auto; font-size: 12px; color: var(--muted); }
.glyph { display: inline-block; width: 1em; text-align: center; font-weight: 700; }
[data-status="running"] > .line .glyph, [data-status="running"] > .card-head .glyph, [data-status="running"] > .sub .state { color: var(--warn); }
[data-status="done"] > .line .glyph, [data-status="done"] > .card-head .glyph { color: var(--ok); }
[data-status="failed"] > .line .glyph, [data-status="failed"] > .card-head .glyph, [data-status="failed"] > .sub .state { color: var(--err); }
[data-status="interrupted"] > .line .glyph, [data-status="interrupted"] > .card-head .glyph, [data-status="interrupted"] > .sub .state { color: var(--accent); }
[data-status="unreached"] { opacity: .6; }
[data-status="skipped"] > .line .glyph, [data-status="skipped"] > .card-head .glyph, [data-status="skipped"] > .sub .state { color: var(--warn); }
.node-card[data-status="skipped"] { border-color: var(--warn); }
.node[data-status="running"] { border-left-color: var(--warn); background: var(--bg); }
.node[data-status="interrupted"] { border-left-color: var(--accent); background: var(--bg); }
.node[data-status="failed"] { border-left-color: var(--err); }
.msg .who .thread { word-break: break-all; }
.msg .who .thread { text-transform: none; letter-spacing: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; user-select: all; }
.node-card { margin: 8px 0; padding: 8px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); min-width: 0; }
.node-card[data-status="failed"] { border-color: var(--err); }
.node-card[data-status="interrupted"] { border-color: var(--accent); }
.node-card .text, .node-card .output { white-space: pre-wrap; word-wrap: break-word; margin-top: 4px; }
.node-card .output { color: var(--muted); font-size: 13px; }
.node-card .output.failed { color: var(--err); }
.parallel { display: flex; gap: 8px; align-items: flex-start; }
.parallel > .node-card { flex: 1 1 0; }
.route, .notice, .live { font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--muted); margin: 4px 0; }
.notice { color: var(--warn); }
.question { display: block; margin: 10px 0; padding: 10px 12px; border: 2px solid var(--accent); border-radius: 8px; background: var(--panel); }
.question .prompt-text { font-weight: 600; white-space: pre-wrap; word-wrap: break-word; }
.question .payload { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; max-height: 240px; overflow: auto; white-space: pre-wrap; word-break: break-word; }
.question .answer-row { display: flex; gap: 8px; align-items: center; margin-top: 8px; flex-wrap: wrap; }
.question .answer { flex: 1 1 200px; min-width: 0; font: inherit; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); }
.question button { padding: 6px 14px; }
.question .as-json { font-size: 12px; color: var(--muted); white-space: nowrap; }
.question .hint { font-size: 11px; color: var(--muted); margin-top: 4px; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; word-break: break-all; }
.question.answered { border-color: var(--line); }
.answered-text { color: var(--muted); margin-top: 6px; white-space: pre-wrap; }
.final { margin-top: 10px; padding-top: 8px; border-top: 1px solid var(--line); }
.final .text { white-space: pre-wrap; word-wrap: break-word; }
header .thread-box { display: flex; gap: 6px; align-items: center; }
header details .thread-box input { width: 200px; }
header details button { padding: 3px 10px; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
@media (max-width: 760px) { .split { flex-direction: column; } aside { width: auto; max-height: 35vh; border-right: none; border-bottom: 1px solid var(--line); } .parallel { flex-direction: column; } }
`;
