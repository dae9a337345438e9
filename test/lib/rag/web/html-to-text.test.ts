import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeEntities, htmlTitle, htmlToText } from '../../../../lib/rag/web/html-to-text.js';

describe('htmlToText', () => {
  test('drops scripts, styles and comments, keeps block structure and list items', () => {
    const html = `<!doctype html><html><head><title>Guide &amp; FAQ</title><style>p { color: red }</style>
      <script>document.write("<p>injected</p>")</script></head>
      <body><nav>Home</nav><h1>Brewing   guide</h1><!-- hidden --><p>Use <b>18&nbsp;g</b> of coffee &mdash; not more.</p>
      <ul><li>Grind fine</li><li>Tamp &lt;evenly&gt;</li></ul><a href="x>y" title='a>b'>Read more</a>
      <script type="module">alert(1)</script><noscript>enable JS</noscript><table><tr><td>A</td><td>B</td></tr></table></body></html>`;
    const text = htmlToText(html);
    assert.equal(text, 'Home\n\nBrewing guide\n\nUse 18 g of coffee — not more.\n\n- Grind fine\n- Tamp <evenly>\nRead more\n\nA B');
    assert.equal(htmlTitle(html), 'Guide & FAQ');
  });

  test('decodes numeric and named references, leaving unknown ones', () => {
    assert.equal(decodeEntities('&#65;&#x42;&#X43; &copy; &unknown; &#0; &#x110000; &amp;lt;'), 'ABC © &unknown; \uFFFD \uFFFD &lt;');
  });

  test('an unclosed script swallows the rest rather than leaking code', () => {
    assert.equal(htmlToText('<p>before</p><script>var secret = 1;'), 'before');
  });
});
