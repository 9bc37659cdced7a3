/**
 * "Choose from library": a modal dialog (native <dialog>: focus stays inside, Escape closes, the page
 * behind is inert) with a search box and a grid of the library's images with their alt text. Each image
 * is a button; arrow keys move between them, Home/End jump, Enter or a click chooses.
 */
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { formatBytes, type MediaItemWithUsage } from '../../shared/media-library';
import { mediaVariantUrl } from '../../shared/media-variants';
import { listMedia } from './media-client';

interface Props {
  onChoose(item: MediaItemWithUsage): void;
  onClose(): void;
  /** The image the field shows now, marked in the grid. */
  currentUrl?: string | undefined;
}

type Load = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready' };

const SEARCH_DELAY_MS = 250;

export function MediaLibraryDialog({ onChoose, onClose, currentUrl }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const gridRef = useRef<HTMLUListElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const searchId = useId();
  const [q, setQ] = useState('');
  const [items, setItems] = useState<MediaItemWithUsage[]>([]);
  const [page, setPage] = useState(1);
  const [pages, setPages] = useState(1);
  const [total, setTotal] = useState(0);
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const request = useRef(0);

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.showModal();
    // showModal focuses the first button (Close); the search box is where choosing starts.
    searchRef.current?.focus();
    return () => opener?.focus();
  }, []);

  const fetchPage = useCallback(async (query: string, pageNumber: number) => {
    const mine = ++request.current;
    setLoad({ kind: 'loading' });
    const outcome = await listMedia(query, pageNumber);
    if (mine !== request.current) return; // a newer search answered first
    if (!outcome.ok) return setLoad({ kind: 'error', message: outcome.message });
    setItems((prev) => (pageNumber === 1 ? outcome.data.items : [...prev, ...outcome.data.items]));
    setPage(outcome.data.page);
    setPages(outcome.data.pages);
    setTotal(outcome.data.total);
    setLoad({ kind: 'ready' });
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => void fetchPage(q.trim(), 1), q ? SEARCH_DELAY_MS : 0);
    return () => clearTimeout(timer);
  }, [q, fetchPage]);

  const close = () => {
    ref.current?.close();
    onClose();
  };

  /** Arrow keys move through the grid by column and row; the column count is read from the layout. */
  function onGridKey(e: KeyboardEvent<HTMLUListElement>) {
    const buttons = [...(gridRef.current?.querySelectorAll<HTMLButtonElement>('button[data-media-choice]') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at === -1) return;
    const top = buttons[0]!.offsetTop;
    const columns = Math.max(1, buttons.filter((b) => b.offsetTop === top).length);
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, ArrowDown: at + columns, ArrowUp: at - columns, Home: 0, End: buttons.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    buttons[Math.min(Math.max(next, 0), buttons.length - 1)]?.focus();
  }

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      className="m-auto flex max-h-[calc(100dvh-2rem)] w-[calc(100%-1.5rem)] max-w-4xl flex-col overflow-hidden rounded-2xl bg-white p-0 text-ink shadow-2xl backdrop:bg-slate-900/50 [&:not([open])]:hidden"
    >
      <div className="flex items-center gap-3 border-b border-slate-200 px-4 py-3 sm:px-6">
        <h2 id={titleId} className="text-lg font-semibold">
          Choose from the media library
        </h2>
        <button type="button" onClick={close} className="ml-auto inline-flex h-9 items-center rounded-lg border border-slate-300 px-3 text-sm font-medium hover:bg-slate-50">
          Close
        </button>
      </div>
      <div className="border-b border-slate-200 px-4 py-3 sm:px-6">
        <label htmlFor={searchId} className="mb-1 block text-sm font-medium text-slate-800">
          Search images
        </label>
        <input
          id={searchId}
          ref={searchRef}
          type="search"
          value={q}
          maxLength={100}
          onChange={(e) => setQ(e.target.value)}
          // The dialog may sit inside an editor's form: Enter searches (it already does as you type), never saves.
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.preventDefault();
          }}
          placeholder="File name or alt text"
          className="block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-base sm:text-sm"
        />
      </div>
      <div className="min-h-48 flex-1 overflow-y-auto px-4 py-4 sm:px-6">
        <p role="status" className="mb-3 text-sm text-slate-600">
          {load.kind === 'loading' ? 'Loading images…' : load.kind === 'ready' ? (total === 0 ? '' : `${total} ${total === 1 ? 'image' : 'images'}. Use the arrow keys to move, Enter to choose.`) : ''}
        </p>
        {load.kind === 'error' && (
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            {load.message}{' '}
            <button type="button" onClick={() => void fetchPage(q.trim(), page)} className="font-semibold underline">
              Try again
            </button>
          </div>
        )}
        {load.kind === 'ready' && total === 0 && (
          <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
            {q.trim() ? `No images match “${q.trim()}”.` : 'The library is empty. Close this and use “Upload image” to add the first picture.'}
          </p>
        )}
        {items.length > 0 && (
          <ul ref={gridRef} onKeyDown={onGridKey} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
            {items.map((item) => {
              const current = item.url === currentUrl;
              return (
                <li key={item.id}>
                  <button
                    type="button"
                    data-media-choice={item.id}
                    aria-current={current ? 'true' : undefined}
                    onClick={() => {
                      ref.current?.close();
                      onChoose(item);
                    }}
                    className={`group block w-full overflow-hidden rounded-xl border text-left focus:outline-3 focus:outline-offset-2 focus:outline-brand-600 ${current ? 'border-brand-600 ring-2 ring-brand-600' : 'border-slate-200 hover:border-brand-600'}`}
                  >
                    <span className="block aspect-video bg-slate-100">
                      <img src={mediaVariantUrl(item.id, 400)} alt="" loading="lazy" className="h-full w-full object-cover" />
                    </span>
                    <span className="block p-2">
                      <span className={`block text-sm [overflow-wrap:anywhere] ${item.alt ? 'text-ink' : 'text-slate-500 italic'}`}>{item.alt || 'No alt text'}</span>
                      <span className="mt-0.5 block truncate text-xs text-slate-600">
                        {item.originalName || 'Untitled'} · {item.width}×{item.height} · {formatBytes(item.size)}
                        {current && ' · chosen now'}
                      </span>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {load.kind === 'ready' && page < pages && (
          <div className="mt-4 text-center">
            <button type="button" onClick={() => void fetchPage(q.trim(), page + 1)} className="inline-flex h-10 items-center rounded-lg border border-slate-300 px-4 text-sm font-semibold hover:bg-slate-50">
              Show more images
            </button>
          </div>
        )}
      </div>
    </dialog>
  );
}
