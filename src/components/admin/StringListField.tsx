/**
 * A list of short texts (a service's benefits, a demo's "suitable for"): add, edit, remove and reorder
 * (drag or keyboard). Errors come by index from the schema ("benefits.2").
 */
import { useId, useRef, useState } from 'react';
import { inputClass } from '../forms/field';
import { SortableList } from './SortableList';

interface Props {
  label: string;
  /** The singular for buttons and announcements ("benefit"). */
  itemLabel: string;
  values: readonly string[];
  onValues(next: string[]): void;
  /** Messages by index. */
  errors?: Record<number, string>;
  /** The whole list's own error (too many items). */
  error?: string | undefined;
  hint?: string;
  maxItems: number;
  maxLength: number;
}

let nextKey = 1;

export function StringListField({ label, itemLabel, values, onValues, errors = {}, error, hint, maxItems, maxLength }: Props) {
  const id = useId();
  // Stable keys for dragging; the values stay the parent's.
  const [keys, setKeys] = useState(() => values.map(() => `k${nextKey++}`));
  const listRef = useRef<HTMLDivElement>(null);
  if (keys.length !== values.length) setKeys(values.map((_, i) => keys[i] ?? `k${nextKey++}`));
  const items = values.map((value, i) => ({ key: keys[i] ?? `k${i}`, value, index: i }));

  const focusItem = (index: number) => requestAnimationFrame(() => listRef.current?.querySelectorAll<HTMLInputElement>('input[type="text"]')[index]?.focus());

  return (
    <fieldset className="min-w-0" aria-describedby={hint || error ? `${id}-help` : undefined}>
      <legend className="mb-1.5 text-sm font-medium text-slate-800">{label}</legend>
      {(hint || error) && (
        <p id={`${id}-help`} className={`mb-2 text-xs ${error ? 'text-sm text-red-700' : 'text-slate-600'}`}>
          {error ?? hint}
        </p>
      )}
      <div ref={listRef}>
        <SortableList
          items={items}
          idOf={(item) => item.key}
          labelOf={(item) => item.value || `${itemLabel} ${item.index + 1}`}
          listLabel={label.toLowerCase()}
          onReorder={(next) => {
            setKeys(next.map((i) => i.key));
            onValues(next.map((i) => i.value));
          }}
          renderItem={(item, handle, index) => {
            const itemError = errors[index];
            return (
              <div>
                <div className="flex items-center gap-1.5">
                  {handle}
                  <input
                    type="text"
                    aria-label={`${itemLabel} ${index + 1}`}
                    aria-invalid={itemError ? true : undefined}
                    aria-describedby={itemError ? `${id}-e${index}` : undefined}
                    maxLength={maxLength * 2}
                    value={item.value}
                    onChange={(e) => onValues(values.map((v, i) => (i === index ? e.target.value : v)))}
                    className={`${inputClass} min-w-0 flex-1 border-slate-300`}
                  />
                  <button
                    type="button"
                    onClick={() => {
                      setKeys(keys.filter((_, i) => i !== index));
                      onValues(values.filter((_, i) => i !== index));
                      focusItem(Math.max(0, index - 1));
                    }}
                    aria-label={`Remove ${itemLabel} ${index + 1}`}
                    className="inline-flex h-10 w-10 flex-none items-center justify-center rounded-md text-slate-500 hover:bg-red-50 hover:text-red-700"
                  >
                    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 fill-current">
                      <path d="M6.3 5.3a1 1 0 0 1 1.4 0L10 7.6l2.3-2.3a1 1 0 1 1 1.4 1.4L11.4 9l2.3 2.3a1 1 0 0 1-1.4 1.4L10 10.4l-2.3 2.3a1 1 0 0 1-1.4-1.4L8.6 9 6.3 6.7a1 1 0 0 1 0-1.4Z" />
                    </svg>
                  </button>
                </div>
                {itemError && (
                  <p id={`${id}-e${index}`} className="mt-1 ml-10 text-sm text-red-700">
                    {itemError}
                  </p>
                )}
              </div>
            );
          }}
        />
      </div>
      <button
        type="button"
        disabled={values.length >= maxItems}
        onClick={() => {
          setKeys([...keys, `k${nextKey++}`]);
          onValues([...values, '']);
          focusItem(values.length);
        }}
        className="mt-2 inline-flex h-9 items-center rounded-lg border border-dashed border-slate-300 px-3 text-sm font-medium text-brand-700 hover:bg-brand-50 disabled:text-slate-400"
      >
        + Add {itemLabel}
      </button>
    </fieldset>
  );
}
