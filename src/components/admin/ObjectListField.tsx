/**
 * A list of small records edited in place (a package's features: title + description): add, remove and
 * reorder by drag or keyboard (SortableList). The editor says how one item's fields look; this gives
 * every such list the same frame, buttons, focus handling and announcements.
 */
import { useId, useRef, useState, type ReactNode } from 'react';
import { SortableList } from './SortableList';

interface Props<T> {
  label: string;
  /** The singular for buttons and announcements ("feature"). */
  itemLabel: string;
  items: readonly T[];
  onItems(next: T[]): void;
  /** A blank item for "Add". */
  newItem(): T;
  /** The item's name in announcements and its heading ("Setup in a week"); empty for a blank one. */
  nameOf(item: T): string;
  /** The item's inputs; `update` merges a change into this item. */
  renderFields(item: T, index: number, update: (patch: Partial<T>) => void): ReactNode;
  /** The whole list's own error (too many items). */
  error?: string | undefined;
  hint?: string;
  maxItems: number;
}

let nextKey = 1;

export function ObjectListField<T extends object>({ label, itemLabel, items, onItems, newItem, nameOf, renderFields, error, hint, maxItems }: Props<T>) {
  const id = useId();
  // Stable keys for dragging and for React; the items stay the parent's.
  const [keys, setKeys] = useState(() => items.map(() => `o${nextKey++}`));
  const listRef = useRef<HTMLDivElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  if (keys.length !== items.length) setKeys(items.map((_, i) => keys[i] ?? `o${nextKey++}`));
  const rows = items.map((item, index) => ({ key: keys[index] ?? `o${index}`, item, index }));
  const titleOf = (item: T, index: number) => nameOf(item).trim() || `${itemLabel} ${index + 1}`;

  /** Focus the first input of an item after React has drawn it (after add and remove). */
  const focusItem = (index: number) =>
    requestAnimationFrame(() => listRef.current?.querySelectorAll<HTMLElement>('[data-object-item]')[index]?.querySelector<HTMLElement>('input, textarea')?.focus());

  const update = (index: number, patch: Partial<T>) => onItems(items.map((item, i) => (i === index ? { ...item, ...patch } : item)));

  return (
    <fieldset className="min-w-0" aria-describedby={hint || error ? `${id}-help` : undefined}>
      <legend className="mb-1.5 text-sm font-medium text-slate-800">{label}</legend>
      {(hint || error) && (
        <p id={`${id}-help`} className={`mb-2 ${error ? 'text-sm text-red-700' : 'text-xs text-slate-600'}`}>
          {error ?? hint}
        </p>
      )}
      <div ref={listRef}>
        <SortableList
          items={rows}
          idOf={(row) => row.key}
          labelOf={(row) => titleOf(row.item, row.index)}
          listLabel={label.toLowerCase()}
          onReorder={(next) => {
            setKeys(next.map((row) => row.key));
            onItems(next.map((row) => row.item));
          }}
          renderItem={(row, handle, index) => (
            <div role="group" aria-labelledby={`${id}-t${row.key}`} data-object-item className="rounded-xl border border-slate-200 bg-slate-50 p-2 sm:p-3">
              <div className="flex items-center gap-1.5">
                {handle}
                <p id={`${id}-t${row.key}`} className="min-w-0 flex-1 truncate text-sm font-semibold text-ink">
                  <span className="text-slate-500">{index + 1}.</span> {titleOf(row.item, index)}
                </p>
                <button
                  type="button"
                  onClick={() => {
                    setKeys(keys.filter((_, i) => i !== index));
                    onItems(items.filter((_, i) => i !== index));
                    // Focus must not fall to the page: the neighbour, or "Add" when the list is now empty.
                    if (items.length > 1) focusItem(Math.max(0, index - 1));
                    else requestAnimationFrame(() => addRef.current?.focus());
                  }}
                  aria-label={`Remove ${itemLabel} ${index + 1}`}
                  className="inline-flex h-10 flex-none items-center gap-1 rounded-md px-2 text-sm text-slate-600 hover:bg-red-50 hover:text-red-700"
                >
                  <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 fill-current">
                    <path d="M6.3 5.3a1 1 0 0 1 1.4 0L10 7.6l2.3-2.3a1 1 0 1 1 1.4 1.4L11.4 9l2.3 2.3a1 1 0 0 1-1.4 1.4L10 10.4l-2.3 2.3a1 1 0 0 1-1.4-1.4L8.6 9 6.3 6.7a1 1 0 0 1 0-1.4Z" />
                  </svg>
                  <span className="hidden sm:inline">Remove</span>
                </button>
              </div>
              <div className="mt-2 space-y-3 sm:pl-10">{renderFields(row.item, index, (patch) => update(index, patch))}</div>
            </div>
          )}
        />
      </div>
      {items.length === 0 && <p className="rounded-lg border border-dashed border-slate-300 px-3 py-4 text-center text-sm text-slate-600">No {itemLabel}s yet.</p>}
      <button
        ref={addRef}
        type="button"
        disabled={items.length >= maxItems}
        onClick={() => {
          setKeys([...keys, `o${nextKey++}`]);
          onItems([...items, newItem()]);
          focusItem(items.length);
        }}
        className="mt-2 inline-flex h-9 items-center rounded-lg border border-dashed border-slate-300 px-3 text-sm font-medium text-brand-700 hover:bg-brand-50 disabled:text-slate-400"
      >
        + Add {itemLabel}
      </button>
    </fieldset>
  );
}
