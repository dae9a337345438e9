/** The playground's stylesheet (inline; no external fonts: system font stacks only). */
export const PLAYGROUND_STYLE = `
:root { color-scheme: light dark; --bg: #f7f7f8; --panel: #fff; --fg: #1d1d1f; --muted: #6b6b76; --line: #dcdce3; --accent: #2f6fed; --ok: #16803c; --err: #c62828; --warn: #9a6700; }
@media (prefers-color-scheme: dark) { :root { --bg: #15161a; --panel: #1e2026; --fg: #ececf1; --muted: #9a9aa6; --line: #33353d; --accent: #6e9bff; --ok: #4cc38a; --err: #ff6b6b; --warn: #e3b341; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg); display: flex; flex-direction: column; height: 100vh; }
header { display: flex; gap: 12px; align-items: baseline; padding: 10px 16px; border-bottom: 1px solid var(--line); background: var(--panel); flex-wrap: wrap; }
header h1 { font-size: 16px; margin: 0; }
header .meta { color: var(--muted); font-size: 13px; }
header details { margin-left: auto; font-size: 13px; }
header details label { display: block; margin: 4px 0; }
header details input { font: inherit; width: 260px; padding: 3px 6px; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); color: var(--fg); }
main { flex: 1; overflow-y: auto; padding: 16px; }
.msg { max-width: 860px; margin: 0 auto 14px; padding: 10px 14px; border-radius: 8px; background: var(--panel); border: 1px solid var(--line); }
.msg.user { border-left: 3px solid var(--accent); }
.msg .who { font-size: 12px; color: var(--muted); margin-bottom: 4px; text-transform: uppercase; letter-spacing: .04em; }
.msg .text { white-space: pre-wrap; word-wrap: break-word; }
.tool-card { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; margin: 6px 0; padding: 6px 8px; border-radius: 6px; border: 1px solid var(--line); background: var(--bg); white-space: pre-wrap; word-break: break-all; }
.tool-card[data-status="running"] .glyph { color: var(--warn); }
.tool-card[data-status="ok"] .glyph { color: var(--ok); }
.tool-card[data-status="error"] .glyph, .tool-card[data-status="denied"] .glyph { color: var(--err); }
.tool-card .result { color: var(--muted); display: block; margin-top: 2px; }
.usage { font-size: 12px; color: var(--muted); margin-top: 6px; }
.error { color: var(--err); border: 1px solid var(--err); border-radius: 6px; padding: 6px 8px; margin-top: 6px; white-space: pre-wrap; }
form { display: flex; gap: 8px; padding: 12px 16px; border-top: 1px solid var(--line); background: var(--panel); }
textarea { flex: 1; font: inherit; resize: vertical; min-height: 44px; max-height: 40vh; padding: 8px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); }
button { font: inherit; padding: 0 16px; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: transparent; color: var(--accent); }
button:disabled { opacity: .5; cursor: default; }
`;
