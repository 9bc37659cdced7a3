/**
 * A list of tags typed as chips, with suggestions from the tags already in use (an ARIA combobox: the input
 * owns a listbox of suggestions). Enter or comma adds what was typed (or the highlighted suggestion),
 * Backspace in the empty input removes the last tag, arrows move through the suggestions, Escape closes
 * them; pasting "a, b, c" adds three. Every change is announced. The rules live in src/shared/tags.ts.
 */
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { addTags, matchingSuggestions } from '../../shared/tags';
import { FieldFrame } from '../forms/field';

interface Props {
  label: string;
  values: readonly string[];
  onValues(next: string[]): void;
  /** Tags in use elsewhere, most used first. */
  suggestions: readonly string[];
  /** Messages by index (from the schema: "tags.2"). */
  errors?: Record<number, string>;
  /** The whole list's own error. */
  error?: string | undefined;
  hint?: string;
  maxItems: number;
  maxLength: number;
}

export function TagsField({ label, values, onValues, suggestions, errors = {}, error, hint, maxItems, maxLength }: Props) {
  const id = useId();
  const listboxId = `${id}-suggestions`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [announcement, setAnnouncement] = useState('');
  const full = values.length >= maxItems;
  const options = open && !full ? matchingSuggestions(suggestions, text, values) : [];
  // One message line for the field (read out with the input): the list's own, or each bad tag's.
  const itemErrors = Object.entries(errors).flatMap(([i, message]) => (values[Number(i)] === undefined ? [] : [`“${values[Number(i)]}”: ${message}`]));
  const shownError = error ?? (itemErrors.length ? itemErrors.join(' ') : undefined);

  function add(input: string) {
    const result = addTags(values, input, suggestions, maxItems);
    if (result.added.length) onValues(result.tags);
    const said = [
      result.added.length ? `Added ${result.added.map((t) => `“${t}”`).join(', ')}.` : '',
      result.duplicates.length ? `${result.duplicates.map((t) => `“${t}”`).join(', ')} already in the list.` : '',
      result.tags.length >= maxItems && result.added.length ? `That is the most tags an article can have (${maxItems}).` : '',
    ];
    setAnnouncement(said.filter(Boolean).join(' '));
    setText('');
    setActive(-1);
  }

  function remove(index: number) {
    const tag = values[index];
    onValues(values.filter((_, i) => i !== index));
    setAnnouncement(`Removed “${tag}”.`);
    inputRef.current?.focus();
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) return setOpen(true);
      const n = options.length;
      if (n === 0) return;
      setActive((i) => (e.key === 'ArrowDown' ? (i + 1) % n : i <= 0 ? n - 1 : i - 1));
    } else if (e.key === 'Enter') {
      // Enter adds a tag; it never submits the editor's form from here.
      e.preventDefault();
      const picked = active >= 0 ? options[active] : undefined;
      if (picked !== undefined) add(picked);
      else if (text.trim()) add(text);
    } else if (e.key === ',') {
      e.preventDefault();
      if (text.trim()) add(text);
    } else if (e.key === 'Backspace' && text === '' && values.length > 0) {
      e.preventDefault();
      remove(values.length - 1);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  }

  return (
    <FieldFrame
      label={label}
      error={shownError}
      hint={hint ?? (full ? `The most tags an article can have is ${maxItems}.` : 'Press Enter or type a comma to add a tag; Backspace removes the last one.')}
      input={(a11y) => (
        <div className="relative">
          <div
            className={`flex min-h-11 flex-wrap items-center gap-1.5 rounded-lg border bg-white px-2 py-1.5 shadow-sm focus-within:border-brand-600 focus-within:outline-2 focus-within:outline-brand-600 ${shownError ? 'border-red-600' : 'border-slate-300'}`}
            onClick={() => inputRef.current?.focus()}
          >
            {values.length > 0 && (
              <ul className="contents" aria-label={`${label}: ${values.length} chosen`}>
                {values.map((tag, i) => (
                  <li
                    key={`${tag}-${i}`}
                    className={`inline-flex max-w-full items-center gap-0.5 rounded-full py-0.5 pr-0.5 pl-2.5 text-sm ${errors[i] ? 'bg-red-50 text-red-800 ring-1 ring-red-600' : 'bg-brand-50 text-brand-900'}`}
                  >
                    <span className="truncate">{tag}</span>
                    <button
                      type="button"
                      onClick={(e) => {
                        e.stopPropagation();
                        remove(i);
                      }}
                      aria-label={`Remove tag “${tag}”`}
                      className="inline-flex h-6 w-6 flex-none items-center justify-center rounded-full hover:bg-black/10"
                    >
                      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-3.5 w-3.5 fill-current">
                        <path d="M6.3 5.3a1 1 0 0 1 1.4 0L10 7.6l2.3-2.3a1 1 0 1 1 1.4 1.4L11.4 9l2.3 2.3a1 1 0 0 1-1.4 1.4L10 10.4l-2.3 2.3a1 1 0 0 1-1.4-1.4L8.6 9 6.3 6.7a1 1 0 0 1 0-1.4Z" />
                      </svg>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <input
              {...a11y}
              ref={inputRef}
              type="text"
              role="combobox"
              aria-autocomplete="list"
              aria-expanded={options.length > 0}
              aria-controls={listboxId}
              aria-activedescendant={active >= 0 && options[active] !== undefined ? `${listboxId}-${active}` : undefined}
              autoComplete="off"
              enterKeyHint="enter"
              disabled={full}
              maxLength={maxLength * 2}
              value={text}
              placeholder={full ? '' : values.length ? 'Add another tag' : 'Add a tag'}
              onChange={(e) => {
                setText(e.target.value);
                setOpen(true);
                setActive(-1);
              }}
              onFocus={() => setOpen(true)}
              onBlur={() => {
                // What was typed is not lost by leaving the field.
                if (text.trim()) add(text);
                setOpen(false);
                setActive(-1);
              }}
              onPaste={(e) => {
                const pasted = e.clipboardData.getData('text');
                if (!pasted.includes(',')) return;
                e.preventDefault();
                add(text + pasted);
              }}
              onKeyDown={onKeyDown}
              className="h-8 min-w-32 flex-1 border-0 bg-transparent px-1 text-base text-ink outline-none placeholder:text-slate-400 disabled:cursor-not-allowed sm:text-sm"
            />
          </div>
          <ul
            id={listboxId}
            role="listbox"
            aria-label="Tags in use"
            hidden={options.length === 0}
            className="absolute inset-x-0 top-full z-30 mt-1 max-h-64 overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
          >
            {options.map((option, i) => (
              <li
                key={option}
                id={`${listboxId}-${i}`}
                role="option"
                aria-selected={i === active}
                // Keeps the focus in the input (the blur would add the half-typed text instead).
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => add(option)}
                className={`cursor-pointer px-3 py-2 text-sm ${i === active ? 'bg-brand-600 text-white' : 'text-ink hover:bg-slate-100'}`}
              >
                {option}
              </li>
            ))}
          </ul>
          <p className="sr-only" role="status" aria-live="polite">
            {announcement}
          </p>
        </div>
      )}
    />
  );
}
