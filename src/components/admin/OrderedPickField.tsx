/**
 * Records picked from another content type, in an order the admin sets (a package's included services):
 * add from the ones not picked yet, remove, and reorder by drag or keyboard (SortableList). A picked id
 * that no longer exists (deleted since the page was opened) stays visible so it can be removed.
 */
import { useId, useRef, useState } from 'react';
import { inputClass } from '../forms/field';
import { SortableList } from './SortableList';

export interface PickOption {
  id: string;
  label: string;
}

interface Props {
  label: string;
  /** The singular for buttons and announcements ("service"). */
  itemLabel: string;
  options: readonly PickOption[];
  value: readonly string[];
  onValue(next: string[]): void;
  error?: string | undefined;
  hint?: string;
  maxItems: number;
}

export function OrderedPickField({ label, itemLabel, options, value, onValue, error, hint, maxItems }: Props) {
  const id = useId();
  const [choice, setChoice] = useState('');
  const [announcement, setAnnouncement] = useState('');
  const selectRef = useRef<HTMLSelectElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const byId = new Map(options.map((o) => [o.id, o]));
  const nameOf = (pickedId: string) => byId.get(pickedId)?.label ?? pickedId;
  const available = options.filter((o) => !value.includes(o.id));
  const full = value.length >= maxItems;

  function add() {
    if (!choice || value.includes(choice) || full) return;
    onValue([...value, choice]);
    setAnnouncement(`Added ${nameOf(choice)}, position ${value.length + 1} of ${value.length + 1}.`);
    setChoice('');
  }

  function remove(index: number) {
    const removed = value[index]!;
    onValue(value.filter((_, i) => i !== index));
    setAnnouncement(`Removed ${nameOf(removed)}.`);
    // Focus must not fall to the page: the next remove button, or the picker when none is left.
    requestAnimationFrame(() => {
      const buttons = listRef.current?.querySelectorAll<HTMLElement>('[data-remove-pick]');
      (buttons?.[Math.min(index, buttons.length - 1)] ?? selectRef.current)?.focus();
    });
  }

  return (
    <fieldset className="min-w-0" aria-describedby={hint || error ? `${id}-help` : undefined}>
      <legend className="mb-1.5 text-sm font-medium text-slate-800">{label}</legend>
      {(hint || error) && (
        <p id={`${id}-help`} className={`mb-2 ${error ? 'text-sm text-red-700' : 'text-xs text-slate-600'}`}>
          {error ?? hint}
        </p>
      )}
      <div ref={listRef}>
        {value.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 px-3 py-4 text-center text-sm text-slate-600">No {itemLabel}s included yet.</p>
        ) : (
          <SortableList
            items={value}
            idOf={(pickedId) => pickedId}
            labelOf={nameOf}
            listLabel={label.toLowerCase()}
            onReorder={(next) => onValue(next)}
            renderItem={(pickedId, handle, index) => {
              const option = byId.get(pickedId);
              return (
                <div className="flex items-center gap-1.5 rounded-xl border border-slate-200 bg-white py-1 pr-1 pl-1 shadow-sm" data-pick={pickedId}>
                  {handle}
                  <span className="w-5 flex-none text-right text-sm text-slate-500">{index + 1}.</span>
                  <span className="min-w-0 flex-1">
                    <span className={`block text-sm font-medium [overflow-wrap:anywhere] ${option ? 'text-ink' : 'text-red-700'}`}>
                      {option ? option.label : `No ${itemLabel} “${pickedId}” any more`}
                    </span>
                    <span className="block truncate text-xs text-slate-500">{pickedId}</span>
                  </span>
                  <button
                    type="button"
                    data-remove-pick
                    onClick={() => remove(index)}
                    aria-label={`Remove ${nameOf(pickedId)}`}
                    className="inline-flex h-10 w-10 flex-none items-center justify-center rounded-md text-slate-500 hover:bg-red-50 hover:text-red-700"
                  >
                    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 fill-current">
                      <path d="M6.3 5.3a1 1 0 0 1 1.4 0L10 7.6l2.3-2.3a1 1 0 1 1 1.4 1.4L11.4 9l2.3 2.3a1 1 0 0 1-1.4 1.4L10 10.4l-2.3 2.3a1 1 0 0 1-1.4-1.4L8.6 9 6.3 6.7a1 1 0 0 1 0-1.4Z" />
                    </svg>
                  </button>
                </div>
              );
            }}
          />
        )}
      </div>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1 basis-48">
          <label htmlFor={`${id}-add`} className="mb-1 block text-sm font-medium text-slate-800">
            Add a {itemLabel}
          </label>
          <select
            id={`${id}-add`}
            ref={selectRef}
            value={choice}
            // The editor focuses the first invalid input after a refused save: here, the picker.
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-help` : undefined}
            disabled={available.length === 0 || full}
            onChange={(e) => setChoice(e.target.value)}
            onKeyDown={(e) => {
              // Enter adds, as in a text field, instead of submitting the whole editor.
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
            className={`${inputClass} border-slate-300 pr-8 disabled:bg-slate-100 disabled:text-slate-500`}
          >
            <option value="">{available.length === 0 ? `Every ${itemLabel} is included` : `Choose a ${itemLabel}…`}</option>
            {available.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          onClick={add}
          disabled={!choice || full}
          className="inline-flex h-11 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-brand-700 hover:bg-brand-50 disabled:text-slate-400"
        >
          Add
        </button>
      </div>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
    </fieldset>
  );
}
