/**
 * What a visitor changed in a server-rendered form field before its React island hydrated, and the event
 * that tells the island about it (decision 053). React keeps a controlled field's state, not what the page
 * shows: a field typed into before hydration shows the text until the island's next render puts its own
 * (empty) state back, and a submit sends that state. Handing each change to the field's own onChange, as
 * if it had just been typed, keeps it, through whatever rules that handler applies.
 */

/** How a field holds what was typed, and so how it is compared and how React hears a change to it. */
export type FieldKind = 'text' | 'checkbox' | 'radio' | 'select' | 'file';

/** The input types React reads as typed text (its change event plugin's list). */
const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'datetime-local', 'month', 'week', 'time', 'color', 'range']);

/** The kind of a form control, or undefined for what nobody types into (hidden inputs, buttons). */
export function fieldKindOf(tagName: string, type: string): FieldKind | undefined {
  const tag = tagName.toLowerCase();
  if (tag === 'textarea') return 'text';
  if (tag === 'select') return 'select';
  if (tag !== 'input') return undefined;
  if (type === 'checkbox' || type === 'radio' || type === 'file') return type;
  return TEXT_INPUT_TYPES.has(type) ? 'text' : undefined;
}

/** What a field shows: its text, whether it is checked, which options are selected, how many files it holds. */
export interface ShownField {
  value: string;
  checked: boolean;
  selected: readonly number[];
  files: number;
}

/** The DOM event React's onChange listens to for each kind (checkable inputs: click; select and file: change). */
export type ReplayEvent = 'input' | 'click' | 'change';

const REPLAY_EVENT: Record<FieldKind, ReplayEvent> = { text: 'input', checkbox: 'click', radio: 'click', select: 'change', file: 'change' };

/**
 * The event to replay for a field that shows `now` where the server sent `served`, or undefined when
 * nothing was changed. Only the radio button that became checked announces a change (as in the browser:
 * the one it replaced is unchecked by the same choice).
 */
export function replayFor(kind: FieldKind, now: ShownField, served: ShownField): ReplayEvent | undefined {
  const changed = {
    text: now.value !== served.value,
    checkbox: now.checked !== served.checked,
    radio: now.checked && !served.checked,
    select: now.selected.join() !== served.selected.join(),
    file: now.files > 0,
  }[kind];
  return changed ? REPLAY_EVENT[kind] : undefined;
}
