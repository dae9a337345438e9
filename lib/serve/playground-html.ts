import { PLAYGROUND_SCRIPT } from './playground-script.js';
import { PLAYGROUND_STYLE } from './playground-style.js';
import { inlinePage, type InlinePage } from './page-csp.js';

/** The playground page and the Content-Security-Policy that pins its inline script and style. */
export type PlaygroundPage = InlinePage;

let page: PlaygroundPage | undefined;

/**
 * One self-contained HTML page (built once, on first use): inline style and script, system fonts,
 * requests only to its own origin. The CSP allows exactly that inline script and style (by hash)
 * and `connect-src 'self'`, so the page cannot load or send anything elsewhere.
 */
export function playgroundPage(): PlaygroundPage {
  page ??= inlinePage({
    title: 'agentlib playground',
    style: PLAYGROUND_STYLE,
    script: PLAYGROUND_SCRIPT,
    body: `<header>
  <h1 id="agent-name">agent</h1>
  <span class="meta" id="meta">loading…</span>
  <details>
    <summary>Settings</summary>
    <label>Bearer token <input id="token" type="password" autocomplete="off" placeholder="only when the server has --auth-token"></label>
    <label>Approve tools <input id="approve" type="text" placeholder="e.g. refund_*, lookup_order"></label>
    <label><input id="keep-session" type="checkbox" checked> keep the conversation (session)</label>
  </details>
</header>
<main id="transcript" aria-live="polite"></main>
<form id="form">
  <textarea id="prompt" rows="2" placeholder="Ask the agent… (Enter sends, Shift+Enter for a new line)"></textarea>
  <button id="send" type="submit">Send</button>
  <button id="stop" type="button" class="secondary" disabled>Stop</button>
  <button id="new-chat" type="button" class="secondary">New chat</button>
</form>
`,
  });
  return page;
}
