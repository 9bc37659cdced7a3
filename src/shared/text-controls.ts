/**
 * The one rule for invisible characters in what people type (names, messages, paths, mail subjects):
 * control characters, and the bidirectional formatting characters that make text read otherwise than it is
 * (U+202E turns "Invoice‮fdp.exe" into "Invoiceexe.pdf" on screen; in an inbox row or a mail subject it
 * reorders what follows the name). Pure and tiny: the chat widget ships it too.
 */

/** C0 and C1 control characters, line breaks and tabs included. */
const CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f';
/** The same without tab, line feed and carriage return, which multi-line text keeps. */
const CONTROLS_BUT_LINE_BREAKS = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f';
/** LRE, RLE, PDF, LRO, RLO (U+202A–U+202E) and LRI, RLI, FSI, PDI (U+2066–U+2069): they reorder what follows. */
const BIDI_CONTROLS = '\\u202a-\\u202e\\u2066-\\u2069';
/** LRM, RLM (U+200E, U+200F) and ALM (U+061C): invisible direction marks, never needed in one line of plain words. */
const DIRECTION_MARKS = '\\u200e\\u200f\\u061c';

const UNSAFE_IN_LINE = new RegExp(`[${CONTROLS}${BIDI_CONTROLS}${DIRECTION_MARKS}]`);
const UNSAFE_IN_LINE_ALL = new RegExp(UNSAFE_IN_LINE.source, 'g');
const UNSAFE_IN_TEXT = new RegExp(`[${CONTROLS_BUT_LINE_BREAKS}${BIDI_CONTROLS}]`);
const CONTROL_IN_TEXT = new RegExp(`[${CONTROLS_BUT_LINE_BREAKS}]`);
const BIDI_CONTROLS_ALL = new RegExp(`[${BIDI_CONTROLS}]`, 'g');

/** One line (a name, a path, a header): no control character, line break, bidi control or direction mark. */
export const isCleanLine = (text: string): boolean => !UNSAFE_IN_LINE.test(text);

/** Multi-line text that goes into mail and logs as written (an audit message): line breaks and tabs only. */
export const isCleanText = (text: string): boolean => !UNSAFE_IN_TEXT.test(text);

/**
 * Conversational text (a chat message): line breaks and tabs, no other control character. Bidi controls
 * are kept as typed and neutralised where the text is shown (withoutBidiControls, dir="auto").
 */
export const hasControlCharacters = (text: string): boolean => CONTROL_IN_TEXT.test(text);

/** A line with those characters removed (or replaced): mail subjects, UTM values, search boxes. */
export const cleanLine = (text: string, replacement = ''): string => text.replace(UNSAFE_IN_LINE_ALL, replacement);

/**
 * Text for display with its bidi controls removed and every letter kept. Show it isolated (`<bdi>` inline,
 * `dir="auto"` on a block) so right-to-left words still read right and nothing leaks into what follows.
 */
export const withoutBidiControls = (text: string): string => text.replace(BIDI_CONTROLS_ALL, '');

/**
 * A name as the site keeps one when it cannot refuse it (a scheduler's webhook, a display name in a header):
 * one line, every unsafe character a space, runs of spaces one, trimmed, at most `max` characters.
 */
export const cleanName = (text: string, max: number): string =>
  Array.from(cleanLine(text, ' ').replace(/\s+/g, ' ').trim())
    .slice(0, max)
    .join('')
    .trim();
