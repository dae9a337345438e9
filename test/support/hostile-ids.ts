// Shared by every store's tests: each backend must refuse all of these with a typed error and
// write nothing outside its base directory.

/** Ids a store must refuse (REFERENCE.md §7): traversal, absolute paths, NUL, overlong, look-alikes. */
export const HOSTILE_IDS: readonly string[] = [
  '..', '.', '../etc/passwd', '..\\..\\windows', 'a/../../b', '/etc/passwd', '/tmp/x', 'C:\\x', 'C:x', '\\\\server\\share',
  'a\0b', '\0', 'x'.repeat(129), 'x'.repeat(10_000), '', ' ', 'a b', 'tab\tid', 'new\nline', 'a/b',
  'a\\b', 'id?', 'id*', 'id:1', 'id|x', '<id>', '"id"', "it's", 'id;rm -rf', '$(id)',
  '`id`', '%2e%2e', '..%2f', 'a..b', '...', '．．', '∕etc∕passwd', 'ｓｅｓｓｉｏｎ', 'sеssion', 'ses\u200bsion',
  'café', 'ñ', '日本', '🙂', 'id\u202e', 'a\u0000', '~root', '~/x', '*', 'con/../..',
];
