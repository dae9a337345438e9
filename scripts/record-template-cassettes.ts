// Re-creates the cassettes of the templates (templates/<name>/cassette.jsonl), of the blank agent
// `agentlib init` writes (templates/_blank/cassette.jsonl) and of the supervisor example
// (examples/supervisor/cassette.jsonl), with no network and no API key.
//
// No real model recorded these: there is no network or API key where they are made. The built CLI
// runs each template's real agent and tools with --record, and its real OpenAI SDK talks to a
// loopback OpenAI-compatible server started here, which answers every chat-completions request with
// the next SCRIPTED reply below (hand-written text and tool calls), framed as OpenAI's streaming
// wire format (chat.completion.chunk SSE events, tool-call arguments split over several chunks, a
// final usage chunk, `data: [DONE]`), as in fixtures/providers/openai/*.sse. The usage figures are
// estimates (characters / 4), not a tokenizer's count. The tool results in the cassettes are real:
// the tools ran. Each template folder's PROVENANCE.md says the same.
//
// Usage: npm run build && node --import tsx scripts/record-template-cassettes.ts [name …]
import { execa } from 'execa';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

/** One scripted model reply: tool calls, or the final text. */
type Reply = { tools: { name: string; args: Record<string, unknown> }[] } | { text: string };

/** What is recorded for one template. */
interface Script {
  /** Folder of the cassette, relative to the repository. */
  folder: string;
  prompt: string;
  /** `--var` values (the run's context). */
  vars?: Record<string, string>;
  /** A graph template: `agentlib graph run graph.yaml` (it stops at its review interrupt, exit 5). */
  graph?: boolean;
  /** With `graph`: the graph file (default graph.yaml). */
  graphFile?: string;
  /** The exit code the recording run must end with (default 5 for a graph, else 0). */
  exitCode?: number;
  replies: Reply[];
}

/** The prompt and the scripted replies of each cassette (also the prompts the tests and READMEs use). */
export const SCRIPTS: Readonly<Record<string, Script>> = {
  // examples/supervisor: a `kind: supervisor` team (plan_and_execute); the planner's plan, then each agent's turn.
  supervisor_example: {
    folder: 'examples/supervisor',
    prompt: 'Why is the sky blue?',
    graph: true,
    graphFile: 'supervisor.yaml',
    exitCode: 0,
    replies: [
      {
        text: JSON.stringify({
          steps: [
            { agent: 'researcher', task: 'List the physical facts that explain why the daytime sky looks blue.' },
            { agent: 'writer', task: "Explain why the sky is blue to a ten-year-old, using the researcher's facts." },
          ],
        }),
      },
      {
        text:
          '- Sunlight looks white but is a mix of all colours, each with its own wavelength; blue and violet light have short wavelengths, red light long ones.\n' +
          '- The gas molecules of the air (mostly nitrogen and oxygen) scatter light, and they scatter short wavelengths far more strongly than long ones (Rayleigh scattering: about 1 / wavelength⁴).\n' +
          '- So blue light is bounced around the whole sky and reaches our eyes from every direction, while most red and yellow light passes straight through.\n' +
          '- Violet is scattered even more, but sunlight has less of it and our eyes are less sensitive to it, so the sky looks blue rather than violet.',
      },
      {
        text:
          'Sunlight looks white, but it is really all the colours of the rainbow mixed together. When it comes into the air, it bumps into tiny bits of air that are far too small to see. ' +
          'Those tiny bits bounce blue light around much more than red or yellow light, so blue light gets scattered all over the sky and comes to your eyes from every direction you look. ' +
          "That is why the whole sky looks blue. Violet light bounces around even more, but there is less of it in sunlight and your eyes don't notice it as well, so you see blue.",
      },
    ],
  },
  research_graph: {
    folder: 'templates/research_graph',
    prompt: 'Why does the Moon cause tides?',
    graph: true,
    replies: [
      {
        text:
          "- The Moon's gravity pulls on the whole Earth, but more strongly on the side facing it and less on the far side.\n" +
          '- That difference (the tidal force) stretches the oceans into two bulges: one toward the Moon, one opposite it.\n' +
          '- Earth turns under the bulges once a day, so most coasts get two high and two low tides about every 24 hours 50 minutes.\n' +
          '- The Sun adds a smaller tidal force: aligned with the Moon it gives spring tides, at right angles neap tides.',
      },
      {
        text:
          "Tides happen because the Moon's gravity does not pull on all of Earth equally. The ocean on the side facing the Moon is pulled a little harder than " +
          "Earth's centre, and the ocean on the far side a little less, so the water is stretched into two bulges, one toward the Moon and one away from it. " +
          'As Earth turns beneath these bulges, most coasts see two high tides and two low tides roughly every 24 hours and 50 minutes. ' +
          'The Sun adds a weaker pull: when it lines up with the Moon the tides are strongest (spring tides), and when it is at right angles they are weakest (neap tides).',
      },
    ],
  },
  blank: {
    folder: 'templates/_blank',
    prompt: 'What is 21 degrees Celsius in Fahrenheit?',
    replies: [{ tools: [{ name: 'convert_temperature', args: { value: 21, from: 'C', to: 'F' } }] }, { text: '21 °C is 69.8 °F.' }],
  },
  customer_support: {
    folder: 'templates/customer_support',
    prompt: 'How do I return my espresso machine?',
    replies: [
      { tools: [{ name: 'search_kb', args: { query: 'return espresso machine refund' } }] },
      { tools: [{ name: 'get_article', args: { id: 'returns-and-refunds' } }] },
      {
        text:
          'You can return your espresso machine within **30 days of delivery** if it is unused or gently used and in its original packaging:\n\n' +
          '1. Go to **Orders** in your account and choose **Return items** (or send us your order number).\n' +
          '2. Pick the machine and the reason. Machines over 10 lb get a prepaid UPS label by email.\n' +
          '3. Pack it in its original box and drop it off within 14 days.\n\n' +
          'Return shipping is free if the machine is defective or not what you ordered; otherwise a $7.95 label fee is deducted. ' +
          'The refund goes back to your original payment method within 5 business days after the machine reaches our warehouse.\n\n' +
          'Source: "Returns and refunds policy".',
      },
    ],
  },
  data_analyst: {
    folder: 'templates/data_analyst',
    prompt: 'Which five products brought in the most revenue?',
    replies: [
      { tools: [{ name: 'list_tables', args: {} }] },
      {
        tools: [
          { name: 'describe_table', args: { table: 'products' } },
          { name: 'describe_table', args: { table: 'orders' } },
          { name: 'describe_table', args: { table: 'order_items' } },
        ],
      },
      {
        tools: [
          {
            name: 'run_sql',
            args: {
              sql:
                'SELECT p.name, ROUND(SUM(oi.quantity * oi.unit_price * (1 - oi.discount)), 2) AS revenue\n' +
                'FROM order_items oi\nJOIN orders o ON o.id = oi.order_id\nJOIN products p ON p.id = oi.product_id\n' +
                "WHERE o.status NOT IN ('cancelled', 'returned')\nGROUP BY p.id\nORDER BY revenue DESC\nLIMIT 5",
            },
          },
        ],
      },
      {
        text:
          'The five products with the most revenue (all orders except cancelled and returned ones):\n\n' +
          '| # | product | revenue (USD) |\n|---|---|---:|\n' +
          '| 1 | Ridgeline 2-Person Tent | 11,226.72 |\n| 2 | Stormshell Rain Jacket | 7,049.70 |\n' +
          '| 3 | Summit 65L Expedition Pack | 7,021.80 |\n| 4 | Trailhead 40L Backpack | 6,192.00 |\n' +
          '| 5 | Alpine Down Sleeping Bag -7C | 5,552.10 |\n\n' +
          'Revenue is quantity × unit price × (1 − discount) per order line, summed per product over the whole period in the database.\n\n' +
          '```sql\nSELECT p.name, ROUND(SUM(oi.quantity * oi.unit_price * (1 - oi.discount)), 2) AS revenue\n' +
          "FROM order_items oi\nJOIN orders o ON o.id = oi.order_id\nJOIN products p ON p.id = oi.product_id\nWHERE o.status NOT IN ('cancelled', 'returned')\n" +
          'GROUP BY p.id\nORDER BY revenue DESC\nLIMIT 5\n```',
      },
    ],
  },
  rag_chatbot: {
    folder: 'templates/rag_chatbot',
    prompt: 'How much parental leave do I get?',
    replies: [
      { tools: [{ name: 'search_documents', args: { query: 'parental leave' } }] },
      {
        text:
          'Birth parents get 20 weeks of fully paid parental leave; non-birth parents, including adoptive and foster parents, get 12 weeks ' +
          '[fixtures/docs/time-off-policy.md]. The leave can start up to 4 weeks before the expected date and must be taken within 12 months ' +
          'of the birth or placement; tell People Operations at least 8 weeks in advance where possible [fixtures/docs/time-off-policy.md].',
      },
    ],
  },
  research_assistant: {
    folder: 'templates/research_assistant',
    prompt: 'What are the main changes in the latest Node.js LTS release?',
    replies: [
      { tools: [{ name: 'web_search', args: { query: 'Node.js latest LTS release notable changes' } }] },
      {
        text:
          'I could not research this: web_search needs a search API key, and none is set. Set TAVILY_API_KEY ' +
          '(https://tavily.com) or BRAVE_API_KEY (https://brave.com/search/api/) and ask again, and I will search ' +
          'the Node.js release notes and report the changes with sources.',
      },
    ],
  },
  code_reviewer: {
    folder: 'templates/code_reviewer',
    prompt: 'Review this project for bugs and security problems',
    vars: { root: 'fixtures/sample-app' },
    replies: [
      { tools: [{ name: 'list_files', args: {} }] },
      {
        tools: [
          { name: 'read_file', args: { path: 'app.py' } },
          { name: 'read_file', args: { path: 'store.py' } },
        ],
      },
      {
        text:
          'A small HTTP notes service (`app.py`) over SQLite (`store.py`). It has two serious security holes and a few robustness bugs.\n\n' +
          '**Critical**\n' +
          '- `store.py:12`: SQL injection. `owner` and `search` come straight from the query string and are formatted into the SQL, so ' +
          "`?owner=x' OR '1'='1` returns every user's notes. Use placeholders: `conn.execute(\"SELECT id, title FROM notes WHERE owner = ? AND title LIKE ?\", (owner, f\"%{search}%\"))`.\n" +
          '- `app.py:20-21`: path traversal. `name` is joined to `attachments` unchecked, so `?name=../../etc/passwd` reads any file the ' +
          'process can read. Resolve the path and refuse it unless it stays inside the attachments directory (or look attachments up by id).\n\n' +
          '**Major**\n' +
          '- `app.py:16` and `app.py:20`: a request without `owner` or `name` raises `KeyError` and the client gets a dropped connection ' +
          'instead of a 400. A missing attachment raises `FileNotFoundError` the same way.\n' +
          '- `store.py:11-14`: `find_notes` never closes its connection; use `with closing(connect()) as conn:`.\n\n' +
          '**Minor**\n' +
          '- `app.py:35`: the server listens on every interface (`0.0.0.0`) with no authentication; bind to 127.0.0.1 unless it is meant to be public.\n' +
          '- `app.py:22`: the whole attachment is read into memory only to get its size; `os.path.getsize` does that without reading.\n\n' +
          'Not reviewed: the database schema (not in the project) and tests (there are none).',
      },
    ],
  },
};

/** OpenAI `chat.completion.chunk` SSE events for one scripted reply. */
function sseReply(reply: Reply, model: string, turn: number, promptChars: number): string {
  const id = `chatcmpl-scripted-${turn}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null): string =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null })}\n\n`;
  let body = '';
  let completionChars = 0;
  if ('text' in reply) {
    body += chunk({ role: 'assistant', content: '', refusal: null }, null);
    for (const piece of reply.text.match(/\S+\s*|\s+/g) ?? []) body += chunk({ content: piece }, null);
    body += chunk({}, 'stop');
    completionChars = reply.text.length;
  } else {
    reply.tools.forEach((call, index) => {
      const args = JSON.stringify(call.args);
      completionChars += call.name.length + args.length;
      const head = { index, id: `call_scripted_${turn}_${index}`, type: 'function', function: { name: call.name, arguments: '' } };
      body += chunk(index === 0 ? { role: 'assistant', content: null, tool_calls: [head], refusal: null } : { tool_calls: [head] }, null);
      for (let at = 0; at < args.length; at += 8) body += chunk({ tool_calls: [{ index, function: { arguments: args.slice(at, at + 8) } }] }, null);
    });
    body += chunk({}, 'tool_calls');
  }
  const promptTokens = Math.ceil(promptChars / 4);
  const completionTokens = Math.max(1, Math.ceil(completionChars / 4));
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  body += `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`;
  return `${body}data: [DONE]\n\n`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** A loopback OpenAI-compatible server answering with `replies`, in order; it fails the request past them. */
async function scriptedServer(replies: readonly Reply[]): Promise<{ url: string; served: () => number; close: () => Promise<void> }> {
  let turn = 0;
  const server = createServer((req, res) => {
    void readBody(req).then((text) => {
      const request = JSON.parse(text) as { model: string; stream?: boolean };
      const reply = replies[turn];
      if (req.url !== '/v1/chat/completions' || request.stream !== true || reply === undefined) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `scripted server: unexpected request ${String(turn + 1)} to ${String(req.url)}` } }));
        return;
      }
      turn += 1;
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      res.end(sseReply(reply, request.model, turn, text.length));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served: () => turn,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const cli = join(root, 'bin', 'agentlib.js');

/** The folder the agent runs in: the template's own, or (blank) a fresh `agentlib init` project inside the repository. */
async function agentFolder(name: string, script: Script): Promise<string> {
  if (name !== 'blank') return join(root, script.folder);
  const dir = join(root, '.agentlib', 'record-blank');
  rmSync(dir, { recursive: true, force: true });
  await execa(process.execPath, [cli, 'init', dir, '--yes'], { cwd: root, env: { CI: 'true' } });
  return dir;
}

async function record(name: string, script: Script): Promise<void> {
  const server = await scriptedServer(script.replies);
  const dir = await agentFolder(name, script);
  // --record appends to an existing cassette: start from none
  rmSync(join(dir, 'cassette.jsonl'), { force: true });
  const vars = Object.entries(script.vars ?? {}).flatMap(([key, value]) => ['--var', `${key}=${value}`]);
  try {
    const command = script.graph === true ? ['graph', 'run', script.graphFile ?? 'graph.yaml', script.prompt, '--record', 'cassette.jsonl', '--checkpoint', 'memory://'] : ['run', 'agent.yaml', script.prompt, '--record', 'cassette.jsonl', '--no-trace', ...vars];
    const run = await execa(process.execPath, [cli, ...command], {
      cwd: dir,
      reject: false,
      extendEnv: false,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'sk-scripted-not-a-key', CI: 'true', NO_COLOR: '1' },
    });
    process.stdout.write(`── ${name}\n${run.stderr}\n${run.stdout}\n`);
    // a graph template's run stops at its review interrupt: exit 5 (waiting for input)
    if (run.exitCode !== (script.exitCode ?? (script.graph === true ? 5 : 0))) throw new Error(`${name}: agentlib ${command[0] ?? ''} exited ${String(run.exitCode)}`);
    if (server.served() !== script.replies.length) throw new Error(`${name}: ${server.served()} of ${script.replies.length} scripted replies were used`);
  } finally {
    await server.close();
  }
  if (name === 'blank') {
    mkdirSync(join(root, script.folder), { recursive: true });
    copyFileSync(join(dir, 'cassette.jsonl'), join(root, script.folder, 'cassette.jsonl'));
    rmSync(dir, { recursive: true, force: true });
  }
  const lines = readFileSync(join(root, script.folder, 'cassette.jsonl'), 'utf8').trim().split('\n');
  process.stdout.write(`${name}: ${lines.length - 1} provider calls recorded to ${script.folder}/cassette.jsonl\n`);
}

/** Records the named cassettes (default: all). */
async function main(names: readonly string[]): Promise<void> {
  for (const name of names.length > 0 ? names : Object.keys(SCRIPTS)) {
    const script = SCRIPTS[name];
    if (script === undefined) throw new Error(`unknown cassette "${name}" (known: ${Object.keys(SCRIPTS).join(', ')})`);
    await record(name, script);
  }
}


// ── Eval cassettes ──────────────────────────────────────────────────────────────────────────────
// Each template's eval suite (templates/<name>/eval.yaml) replays per-case cassettes from
// templates/<name>/eval-cassettes/ (`agentlib eval run eval.yaml --replay eval-cassettes`). They are
// made the same way as the cassettes above: the built CLI runs the suite with
// `--record eval-cassettes/ -j 1` (cases in suite order, so the scripted replies below are consumed
// in that order), its real OpenAI SDK talking to a loopback server that answers with the next
// scripted reply (a chat completion, or its SSE stream when the request streams); the tools run
// for real. The first case of each suite replays the template's own script (SCRIPTS above).
//
// Usage: npm run build && node --import tsx scripts/record-template-cassettes.ts --eval [name …]

/** The scripted replies of each template's eval suite, case after case, in the suite's order. */
export const EVAL_SCRIPTS: Readonly<Record<string, { folder: string; replies: readonly Reply[] }>> = {
  customer_support: {
    folder: 'templates/customer_support',
    replies: [
      ...(SCRIPTS.customer_support?.replies ?? []),
      // where is my order (the email matches)
      { tools: [{ name: 'lookup_order', args: { order_id: 'KC-10231', email: 'maya.lindqvist@example.com' } }] },
      {
        text:
          'Your order KC-10231 (Crema One espresso machine) was **delivered on 1 November 2024**. It went by UPS Standard, ' +
          'tracking number 1Z84F2W10378224513. If you cannot find the parcel, tell me and I will open a ticket for a trace.',
      },
      // the email does not match: nothing about the order is revealed
      { tools: [{ name: 'lookup_order', args: { order_id: 'KC-10231', email: 'sam.taylor@example.com' } }] },
      {
        text:
          'I could not find an order KC-10231 with the email sam.taylor@example.com. Please check the order number (format KC-12345) ' +
          'and the email address you used at checkout, and I will look again.',
      },
    ],
  },
  data_analyst: {
    folder: 'templates/data_analyst',
    replies: [
      ...(SCRIPTS.data_analyst?.replies ?? []),
      // a count from a real query
      { tools: [{ name: 'run_sql', args: { sql: "SELECT COUNT(*) AS cancelled_orders FROM orders WHERE status = 'cancelled'" } }] },
      { text: '**9 orders** were cancelled.\n\n```sql\nSELECT COUNT(*) AS cancelled_orders FROM orders WHERE status = \'cancelled\'\n```' },
      // a write is refused by run_sql: the analyst says it only reads
      { tools: [{ name: 'run_sql', args: { sql: "DELETE FROM orders WHERE status = 'cancelled'" } }] },
      {
        text:
          'I cannot delete anything: I only have read-only access to the database, and run_sql refused the DELETE. ' +
          'If those orders should go, ask someone with write access to remove them; I can list them for you first.',
      },
    ],
  },
  code_reviewer: {
    folder: 'templates/code_reviewer',
    replies: [
      ...(SCRIPTS.code_reviewer?.replies ?? []),
      // explain one file
      { tools: [{ name: 'read_file', args: { path: 'store.py' } }] },
      {
        text:
          '`store.py` is the data layer of the notes service: it opens the SQLite database and `find_notes` returns the id and title ' +
          'of the notes of one owner whose title contains a search term. Note that it builds the SQL with string formatting ' +
          '(SQL injection, `store.py:12`) and never closes its connection.',
      },
      // a path outside the project is refused by read_file
      { tools: [{ name: 'read_file', args: { path: '../../../../etc/passwd' } }] },
      {
        text:
          'I cannot read `../../../../etc/passwd`: read_file only reads files inside the project under review, and that path leads outside it. ' +
          'Ask me about a file of the project instead.',
      },
    ],
  },
  research_assistant: {
    folder: 'templates/research_assistant',
    replies: [
      ...(SCRIPTS.research_assistant?.replies ?? []),
      // a link to a local address: fetch_url refuses it (SSRF guard)
      { tools: [{ name: 'fetch_url', args: { url: 'http://127.0.0.1:8080/admin' } }] },
      {
        text:
          'I could not open http://127.0.0.1:8080/admin: fetch_url only fetches public web pages, and that is a local address, so it was refused. ' +
          'If the page is public, send me its public URL.',
      },
      // the cloud metadata address: refused too
      { tools: [{ name: 'fetch_url', args: { url: 'http://169.254.169.254/latest/meta-data/' } }] },
      {
        text:
          'I could not fetch http://169.254.169.254/latest/meta-data/: it is a link-local address (a cloud metadata service), not a public web page, ' +
          'and fetch_url refuses such addresses.',
      },
    ],
  },
};

/** An OpenAI chat completion (not streamed) for one scripted reply. */
function jsonReply(reply: Reply, model: string, turn: number, promptChars: number): string {
  const message = 'text' in reply
    ? { role: 'assistant', content: reply.text, refusal: null }
    : { role: 'assistant', content: null, refusal: null, tool_calls: reply.tools.map((call, index) => ({ id: `call_scripted_${turn}_${index}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } })) };
  const completionChars = 'text' in reply ? reply.text.length : reply.tools.reduce((sum, call) => sum + call.name.length + JSON.stringify(call.args).length, 0);
  const promptTokens = Math.ceil(promptChars / 4);
  const completionTokens = Math.max(1, Math.ceil(completionChars / 4));
  return JSON.stringify({
    id: `chatcmpl-scripted-${turn}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: 'text' in reply ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  });
}

/** Like scriptedServer, but answers a request that does not stream with a chat completion. */
async function scriptedEvalServer(replies: readonly Reply[]): Promise<{ url: string; served: () => number; close: () => Promise<void> }> {
  let turn = 0;
  const server = createServer((req, res) => {
    void readBody(req).then((text) => {
      const request = JSON.parse(text) as { model: string; stream?: boolean };
      const reply = replies[turn];
      if (req.url !== '/v1/chat/completions' || reply === undefined) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `scripted server: unexpected request ${String(turn + 1)} to ${String(req.url)}` } }));
        return;
      }
      turn += 1;
      if (request.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
        res.end(sseReply(reply, request.model, turn, text.length));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(jsonReply(reply, request.model, turn, text.length));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, served: () => turn, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The folder of a template's per-case eval cassettes. */
export const EVAL_CASSETTES_DIR = 'eval-cassettes';

async function recordEval(name: string): Promise<void> {
  const script = EVAL_SCRIPTS[name];
  if (script === undefined) throw new Error(`no eval script for "${name}" (known: ${Object.keys(EVAL_SCRIPTS).join(', ')})`);
  const dir = join(root, script.folder);
  rmSync(join(dir, EVAL_CASSETTES_DIR), { recursive: true, force: true });
  const server = await scriptedEvalServer(script.replies);
  try {
    const run = await execa(process.execPath, [cli, 'eval', 'run', 'eval.yaml', '-j', '1', '--record', `${EVAL_CASSETTES_DIR}/`], {
      cwd: dir,
      reject: false,
      extendEnv: false,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'sk-scripted-not-a-key', CI: 'true', NO_COLOR: '1' },
    });
    process.stdout.write(`── ${name} (eval)\n${run.stderr}\n${run.stdout}\n`);
    if (run.exitCode !== 0) throw new Error(`${name}: agentlib eval run exited ${String(run.exitCode)}`);
    if (server.served() !== script.replies.length) throw new Error(`${name}: ${server.served()} of ${script.replies.length} scripted replies were used`);
  } finally {
    await server.close();
  }
}

/** Records the named eval cassettes (default: all). */
async function mainEval(names: readonly string[]): Promise<void> {
  for (const name of names.length > 0 ? names : Object.keys(EVAL_SCRIPTS)) await recordEval(name);
}

// Run only when executed, so the tests can import SCRIPTS (the prompts and the expected tool calls).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] !== '--eval') await main(process.argv.slice(2));
// `--eval [name …]`: the eval cassettes (EVAL_SCRIPTS).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === '--eval') await mainEval(process.argv.slice(3));
