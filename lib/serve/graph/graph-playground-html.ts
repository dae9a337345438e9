import { inlinePage } from '../page-csp.js';
import type { PlaygroundPage } from '../playground-html.js';
import { GRAPH_PLAYGROUND_SCRIPT } from './graph-playground-script.js';
import { GRAPH_PLAYGROUND_STYLE } from './graph-playground-style.js';

let page: PlaygroundPage | undefined;

/**
 * The playground of a served graph (built once, on first use): one self-contained page (inline
 * style and script, system fonts, requests to its own origin only) with the graph's nodes and
 * edges, a prompt box, the run's progress node by node, and a form for each question of an
 * interrupted run. Its CSP allows exactly that script and style (by hash) and `connect-src 'self'`.
 */
export function graphPlaygroundPage(): PlaygroundPage {
  page ??= inlinePage({
    title: 'agentlib graph playground',
    style: GRAPH_PLAYGROUND_STYLE,
    script: GRAPH_PLAYGROUND_SCRIPT,
    body: `<header>
  <h1 id="graph-name">graph</h1>
  <span class="meta" id="meta">loading…</span>
  <details>
    <summary>Settings</summary>
    <label>Bearer token <input id="token" type="password" autocomplete="off" placeholder="only when the server has --auth-token"></label>
    <label for="thread">Thread id: the next run uses it (empty: a new thread); Open answers its pending question</label>
    <span class="thread-box"><input id="thread" type="text" autocomplete="off" spellcheck="false" placeholder="thread_… from an earlier run"><button id="open-thread" type="button" class="secondary">Open</button></span>
  </details>
</header>
<div class="split">
  <aside aria-label="the graph">
    <h2>Nodes</h2>
    <ol id="nodes"></ol>
  </aside>
  <main id="transcript" aria-live="polite"></main>
</div>
<form id="form">
  <textarea id="prompt" rows="2" aria-label="prompt" placeholder="Input for the graph… (Enter runs it, Shift+Enter for a new line)"></textarea>
  <button id="send" type="submit">Run</button>
  <button id="stop" type="button" class="secondary" disabled>Stop</button>
</form>
`,
  });
  return page;
}
