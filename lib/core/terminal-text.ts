/**
 * Escape sequences a terminal would act on: CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ESC \`),
 * DCS / SOS / PM / APC strings (`ESC P|X|^|_ … ESC \`), their 8-bit C1 forms, and other
 * two-character ESC sequences.
 */
const SEQUENCES = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|(?:\u001b[PX^_]|[\u0090\u0098\u009e\u009f])[^\u001b\u009c]*(?:\u001b\\|\u009c)?|\u001b[ -~]?/g;
/** C0 and C1 control characters except tab and line feed, and DEL. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const ANY_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/**
 * Text from a model, a tool or a trace file made safe to draw on a terminal: escape sequences
 * (colours, cursor moves, window titles, clipboard writes through OSC 52, …) and control
 * characters are removed, `\r\n` becomes `\n`, a lone `\r` and tabs become spaces. Untrusted
 * output must never drive the user's terminal. Text without control characters is returned as is.
 */
export function sanitizeForTerminal(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(/\r\n/g, '\n').replace(SEQUENCES, '').replace(/[\r\t]/g, ' ').replace(CONTROLS, '');
}
