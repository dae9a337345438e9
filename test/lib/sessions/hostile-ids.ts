/**
 * Fifty session ids no store may accept (REFERENCE.md §7): traversal, absolute and UNC paths, NUL
 * and control characters, over-long ids, shell and glob characters, and Unicode look-alikes of
 * the allowed characters (full-width letters, dot leaders, slashes that are not `/`).
 */
export const HOSTILE_IDS: readonly string[] = [
  '..', '../x', '../../etc/passwd', 'a/../../b', '...', 'a..b', '..\\x', './x', 'a/b', 'a\\b',
  '/etc/passwd', '/tmp/x', 'C:\\Windows\\x', 'C:x', '\\\\server\\share', '//server/share', 'file:///etc/passwd', '~', '~/x', '$HOME',
  'a\0b', '\0', 'a\nb', 'a\rb', 'a\tb', ' ', 'a b', '', 'x'.repeat(129), 'y'.repeat(4096),
  'ａｂｃ', 'a\u2024b', '\u2025', 'а', 'a\u2215b', 'a\uFF0Fb', 'a\u29F5b', '\u202Eabc', '\u200Ba', 'é',
  '%2e%2e', '%2e%2e%2fx', '`id`', 'a;b', 'a:b', 'a*', 'a?', '[a]', 'a|b', 'a"b',
];
