/**
 * Keeps what a visitor typed into an island's server-rendered fields before the island hydrated (decision
 * 053): a slow phone shows the form long before its script runs, and React's first render after that would
 * put the island's own state back into every controlled field, or send that state on submit.
 *
 * `useKeepTypedValues(rootRef)` notes, in the island's first commit, every field under the root that shows
 * something other than what the server sent (typed, chosen, checked, autofilled, or restored by the browser)
 * and then hands each one to the field's own onChange by replaying the event React listens to for it. The
 * island's handlers therefore decide what to keep, exactly as if the visitor had typed it a moment later.
 */
import { useLayoutEffect, type RefObject } from 'react';
import { fieldKindOf, replayFor, type FieldKind, type ReplayEvent, type ShownField } from '../../shared/typed-before-hydration';

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

interface TypedChange {
  field: Field;
  event: ReplayEvent;
  now: ShownField;
  served: ShownField;
  /** The caret of the field being typed in when the island came alive, put back after the replay. */
  caret?: { start: number; end: number } | undefined;
}

/** The field as the server sent it: a copy, reset (HTML's reset gives a field back its markup's value). */
function servedCopy<F extends Field>(field: F): F {
  const copy = field.cloneNode(true) as F;
  const form = document.createElement('form');
  form.append(copy);
  form.reset();
  return copy;
}

function shown(field: Field, value = field.value): ShownField {
  return {
    value,
    checked: field instanceof HTMLInputElement && field.checked,
    selected: field instanceof HTMLSelectElement ? [...field.options].flatMap((option, i) => (option.selected ? [i] : [])) : [],
    files: field instanceof HTMLInputElement ? (field.files?.length ?? 0) : 0,
  };
}

/**
 * The last text typed into each textarea. Hydrating a textarea that has text sets it back to that text
 * (react-dom's initTextarea), so by the island's first commit what was typed there is gone from the page;
 * inputs and selects keep theirs. This module runs when an island's code loads, before it hydrates.
 */
const typedTextareas = new WeakMap<HTMLTextAreaElement, string>();

function recordTextareas() {
  const remember = (target: EventTarget | null) => {
    if (target instanceof HTMLTextAreaElement) typedTextareas.set(target, target.value);
  };
  for (const textarea of document.querySelectorAll('textarea')) remember(textarea);
  document.addEventListener('input', (event) => remember(event.target), true);
}
if (typeof document !== 'undefined') recordTextareas();

function typedChange(field: Field, kind: FieldKind): TypedChange | undefined {
  const served = shown(servedCopy(field));
  let value = field.value;
  if (field instanceof HTMLTextAreaElement && value === served.value) value = typedTextareas.get(field) ?? value;
  const now = shown(field, value);
  const event = replayFor(kind, now, served);
  if (!event) return undefined;
  let caret: TypedChange['caret'];
  if (!(field instanceof HTMLSelectElement) && field === document.activeElement && field.value === value && field.selectionStart !== null) {
    caret = { start: field.selectionStart, end: field.selectionEnd ?? field.selectionStart };
  }
  return { field, event, now, served, caret };
}

function typedChanges(root: HTMLElement): TypedChange[] {
  return [...root.querySelectorAll<Field>('input, textarea, select')].flatMap((field) => {
    const kind = fieldKindOf(field.tagName, field.type);
    const change = kind && typedChange(field, kind);
    return change ? [change] : [];
  });
}

/** Sets a property with the browser's own setter, past the one React puts on each field it controls. */
function setUnseen(field: Field, property: 'value' | 'checked', value: string | boolean) {
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), property)?.set?.call(field, value);
}

function replay({ field, event, now, served, caret }: TypedChange) {
  if (!field.isConnected) return;
  // React fires onChange only when a field differs from the value it last saw: through its setter it sees
  // the served value, and the typed one goes back in past it.
  if (event === 'input') {
    field.value = served.value;
    setUnseen(field, 'value', now.value);
  } else if (event === 'click' && field instanceof HTMLInputElement) {
    field.checked = !now.checked;
    setUnseen(field, 'checked', now.checked);
  } else if (field instanceof HTMLSelectElement) {
    for (const [i, option] of [...field.options].entries()) option.selected = now.selected.includes(i);
  }
  // A plain Event, not a MouseEvent: a replayed click does not toggle a checkbox again.
  field.dispatchEvent(new Event(event, { bubbles: true }));
  if (caret && field === document.activeElement && !(field instanceof HTMLSelectElement)) field.setSelectionRange(caret.start, caret.end);
}

/**
 * Call once in every island that renders form fields, with a ref on its outermost element (or on the form,
 * when the form is all it renders).
 */
export function useKeepTypedValues(root: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    // Noted in the first commit, before any render of the island puts its state back into the fields;
    // replayed once the commit is over, so each change renders before the next is handled.
    const changes = root.current ? typedChanges(root.current) : [];
    if (changes.length) queueMicrotask(() => changes.forEach(replay));
  }, [root]);
}
