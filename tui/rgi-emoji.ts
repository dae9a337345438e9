/**
 * `/^\p{RGI_Emoji}$/v.test(segment)` (string-width's emoji test, run on every non-ASCII grapheme),
 * without building that regex for text that cannot hold an emoji: V8 takes 25-60 ms to parse and
 * compile it, most of the time the viewer's first frame would otherwise spend measuring text.
 * scripts/bundle-tui.mjs makes the bundled string-width call this instead of its own regex.
 *
 * RGI emoji are fully qualified: every emoji character in one either has the Emoji_Presentation
 * property or is followed by U+FE0F (VARIATION SELECTOR-16; keycaps `#️⃣` included), so a segment
 * with neither is never one, and the full regex decides the rest.
 */
const MAY_BE_RGI_EMOJI = /[\p{Emoji_Presentation}\uFE0F]/u;
let rgiEmoji: RegExp | undefined;

/** Whether `segment` (one grapheme) is an RGI emoji: the same answer as `/^\p{RGI_Emoji}$/v`. */
export function isRgiEmoji(segment: string): boolean {
  return MAY_BE_RGI_EMOJI.test(segment) && (rgiEmoji ??= new RegExp('^\\p{RGI_Emoji}$', 'v')).test(segment);
}
