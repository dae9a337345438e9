// esbuild plugins and helpers shared by the build's bundles (scripts/bundle-tui.mjs, scripts/bundle-run.mjs).
import { readFile } from 'node:fs/promises';

/** `source` with the one occurrence of `from` replaced; a missing or repeated one fails the build (a dependency changed). */
export function replaceOnce(source, from, to, file) {
  const at = source.indexOf(from);
  if (at === -1 || source.indexOf(from, at + from.length) !== -1) {
    throw new Error(`bundle: expected exactly one "${from}" in ${file}; the dependency changed, update the build's patch of it (scripts/bundle-*.mjs)`);
  }
  return source.slice(0, at) + to + source.slice(at + from.length);
}

/**
 * yargs finds its message files (locales/*.json) relative to its own module, which in a bundle is
 * the bundle: they are looked up next to the installed yargs package instead. (Without them yargs
 * prints its message keys, a few of which differ from the English texts.)
 */
export function yargsLocales() {
  return {
    name: 'yargs-locales',
    setup(b) {
      b.onLoad({ filter: /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/ }, async (args) => {
        const code = replaceOnce(await readFile(args.path, 'utf8'), "resolve(__dirname, '../../../locales')", "resolve(require.resolve('yargs/package.json'), '../locales')", args.path);
        return { contents: code, loader: 'js' };
      });
    },
  };
}

/**
 * string-width (7 under cliui and wrap-ansi, which yargs uses for help text only; 8 under yargs
 * itself) creates an Intl.Segmenter when loaded, ~10 ms of every start-up; in the bundle it is
 * created on first use. With `rgiEmojiModule` (the path of the compiled tui/rgi-emoji.js),
 * string-width 8's `/^\p{RGI_Emoji}$/v`, which V8 takes 20–60 ms to parse every time the module is
 * evaluated, is replaced by that module's `isRgiEmoji` (same answers; the regex is built only for
 * a grapheme that can be an emoji).
 */
export function lazySegmenter({ rgiEmojiModule } = {}) {
  return {
    name: 'lazy-segmenter',
    setup(b) {
      b.onLoad({ filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/ }, async (args) => {
        let code = await readFile(args.path, 'utf8');
        code = replaceOnce(code, 'const segmenter = new Intl.Segmenter();', 'let segmenter;', args.path);
        code = replaceOnce(code, 'of segmenter.segment(string)', 'of (segmenter ??= new Intl.Segmenter()).segment(string)', args.path);
        if (rgiEmojiModule !== undefined && code.includes('const rgiEmojiRegex =')) {
          code = replaceOnce(code, 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;', `import { isRgiEmoji } from ${JSON.stringify(rgiEmojiModule)};`, args.path);
          code = replaceOnce(code, 'rgiEmojiRegex.test(segment)', 'isRgiEmoji(segment)', args.path);
        }
        return { contents: code, loader: 'js' };
      });
    },
  };
}
