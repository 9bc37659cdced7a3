/**
 * /admin/media: the library's images as the server rendered them (search and page come from the URL),
 * plus what needs script: uploading (button or drop, several files in turn, each with its progress and
 * retries), alt text editing, copying an image's address, and deleting an image no page uses (after a
 * confirmation; an image in use says where, and the server refuses it anyway).
 *
 * An image's alt text is its one description, used by every page that shows it (decision 033): a new
 * upload asks for it (its card is marked and, once the uploads are done, its alt field has the focus).
 */
import { useId, useRef, useState, type DragEvent, type ReactNode, type SubmitEvent } from 'react';
import { useConfirm } from '../../components/admin/ConfirmDialog';
import { TextArea } from '../../components/admin/fields';
import { ProgressBar } from '../../components/admin/ProgressBar';
import { deleteMediaItem, setMediaAlt, uploadImage } from '../../components/admin/media-client';
import { toast } from '../../components/admin/toasts';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import { describeUsage, formatBytes, MEDIA_ACCEPT, MEDIA_ALT_MAX, MEDIA_FORMATS_TEXT, MEDIA_UPLOAD_MAX_BYTES, type MediaItemWithUsage } from '../../shared/media-library';
import { mediaVariantUrl } from '../../shared/media-variants';
import { formatInZone } from '../../shared/dates';

interface Props {
  items: MediaItemWithUsage[];
  /** The search the list shows (new uploads are added to the top only of the unfiltered first page). */
  q: string;
  page: number;
  usedBytes: number;
  quotaBytes: number;
  /** "28 images · page 1 of 2", shown above the grid. */
  summary: string;
  /** The search form (server-rendered, works without script), shown between the uploader and the grid. */
  children?: ReactNode;
  /** The site's time zone (decision 032): the page header names it. */
  timeZone: string;
}

interface QueuedUpload {
  key: number;
  name: string;
  percent: number;
  state: 'waiting' | 'uploading' | 'retrying' | 'failed';
  message?: string | undefined;
}

const button = 'inline-flex h-9 items-center rounded-lg px-3 text-sm font-semibold disabled:cursor-not-allowed disabled:opacity-60';

let nextKey = 1;

export default function MediaLibrary({ items: initialItems, q, page, usedBytes: initialUsed, quotaBytes, summary, children, timeZone }: Props) {
  const root = useRef<HTMLDivElement>(null);
  useKeepTypedValues(root);
  const [items, setItems] = useState(initialItems);
  const [used, setUsed] = useState(initialUsed);
  const [queue, setQueue] = useState<QueuedUpload[]>([]);
  const [dragging, setDragging] = useState(false);
  const [confirm, dialog] = useConfirm();
  const fileInput = useRef<HTMLInputElement>(null);
  const running = useRef(Promise.resolve());
  const waiting = useRef(0);
  /** Images uploaded on this visit: their cards ask for the alt text. */
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const showsNewest = !q && page === 1;

  const update = (key: number, change: Partial<QueuedUpload>) => setQueue((all) => all.map((u) => (u.key === key ? { ...u, ...change } : u)));

  function enqueue(files: FileList | null | undefined) {
    for (const file of [...(files ?? [])]) {
      const key = nextKey++;
      setQueue((all) => [...all, { key, name: file.name, percent: 0, state: 'waiting' }]);
      waiting.current++;
      // One at a time: each gets the whole connection, and the order on screen is the order chosen.
      running.current = running.current.then(() => send(key, file)).finally(() => waiting.current--);
    }
  }

  async function send(key: number, file: File) {
    update(key, { state: 'uploading' });
    const outcome = await uploadImage(file, {
      onProgress: (f) => update(key, { percent: Math.round(f * 100) }),
      onRetry: (attempt) => update(key, { state: 'retrying', message: `The connection or the server failed; sending it again (attempt ${attempt + 1}). Uploads keep trying for up to 10 minutes.` }),
    });
    if (!outcome.ok) return update(key, { state: 'failed', message: outcome.message });
    setQueue((all) => all.filter((u) => u.key !== key));
    const item = outcome.data;
    if (item.created) setUsed((u) => u + item.size);
    if (showsNewest) setItems((all) => [{ ...item, usage: [] }, ...all.filter((i) => i.id !== item.id)]);
    toast('success', item.created ? `Uploaded “${file.name}”.${item.alt ? '' : ' Add its alt text.'}` : `“${file.name}” is already in the library: nothing new was stored.`);
    if (!item.alt && showsNewest) {
      setFresh((ids) => new Set([...ids, item.id]));
      // The last of the uploads: its description is next (earlier ones are marked, without taking the focus).
      if (waiting.current <= 1) requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-media-item="${item.id}"] textarea`)?.focus());
    }
  }

  async function remove(item: MediaItemWithUsage) {
    const name = item.originalName || 'this image';
    if (!(await confirm(`Delete “${name}”?`, 'It is removed from the media library for good. No page uses it now.'))) return;
    const outcome = await deleteMediaItem(item.id);
    if (!outcome.ok && outcome.code !== 'storage/object-not-found') {
      // A page took the image up since this list was drawn: the card now says where, instead of Delete.
      if (outcome.usage?.length) setItems((all) => all.map((i) => (i.id === item.id ? { ...i, usage: outcome.usage ?? [] } : i)));
      return toast('error', outcome.message);
    }
    setItems((all) => all.filter((i) => i.id !== item.id));
    setUsed((u) => Math.max(0, u - item.size));
    toast('success', `Deleted “${name}”.`);
  }

  const drag = {
    onDragOver(e: DragEvent) {
      if (!e.dataTransfer.types.includes('Files')) return;
      e.preventDefault();
      setDragging(true);
    },
    onDragLeave(e: DragEvent) {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop(e: DragEvent) {
      e.preventDefault();
      setDragging(false);
      enqueue(e.dataTransfer.files);
    },
  };

  const share = quotaBytes > 0 ? Math.min(100, (used / quotaBytes) * 100) : 100;

  return (
    <div ref={root} className="space-y-6" data-media-library>
      <section aria-label="Upload images" {...drag} className={`rounded-2xl border-2 border-dashed p-5 text-center transition-colors ${dragging ? 'border-brand-600 bg-brand-50' : 'border-slate-300 bg-white'}`}>
        <p className="font-semibold text-ink">
          {dragging ? (
            'Drop to upload'
          ) : (
            <>
              <span className="sm:hidden">Add images to the library</span>
              <span className="hidden sm:inline">Drop images here to add them to the library</span>
            </>
          )}
        </p>
        <p className="mt-1 text-sm text-slate-600">
          {MEDIA_FORMATS_TEXT}, up to {formatBytes(MEDIA_UPLOAD_MAX_BYTES)} each. Pictures are resized to at most 1600 px and their camera data (EXIF, location) is removed.
        </p>
        <button type="button" onClick={() => fileInput.current?.click()} className={`${button} mt-3 h-10 bg-brand-600 px-4 text-white hover:bg-brand-700`}>
          Upload images
        </button>
        <input
          ref={fileInput}
          type="file"
          accept={MEDIA_ACCEPT}
          multiple
          hidden
          tabIndex={-1}
          onChange={(e) => {
            enqueue(e.currentTarget.files);
            e.currentTarget.value = '';
          }}
        />
        {queue.length > 0 && (
          <ul className="mx-auto mt-4 max-w-xl space-y-2 text-left">
            {queue.map((u) => (
              <li key={u.key} className="rounded-lg border border-slate-200 bg-white p-3" data-upload-progress>
                <div className="flex items-center justify-between gap-2 text-sm">
                  <span className="min-w-0 truncate">
                    {u.state === 'retrying' ? 'Retrying upload… ' : u.state === 'failed' ? 'Not uploaded: ' : u.state === 'waiting' ? 'Waiting: ' : 'Uploading '}
                    <span className="font-medium">{u.name}</span>
                  </span>
                  {u.state === 'failed' ? (
                    <button type="button" onClick={() => setQueue((all) => all.filter((x) => x.key !== u.key))} className="flex-none text-sm font-semibold text-slate-700 underline">
                      Dismiss<span className="sr-only"> {u.name}</span>
                    </button>
                  ) : (
                    <span className="flex-none text-slate-600" aria-hidden="true">
                      {u.percent}%
                    </span>
                  )}
                </div>
                {u.state !== 'failed' && (
                  <div className="mt-2">
                    <ProgressBar value={u.percent} label={`Uploading ${u.name}`} />
                  </div>
                )}
                {u.message && (
                  <p role={u.state === 'failed' ? 'alert' : undefined} className={`mt-2 text-sm ${u.state === 'failed' ? 'text-red-700' : 'text-slate-600'}`}>
                    {u.message}
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
        <div className="mx-auto mt-4 max-w-xl text-left text-sm text-slate-600">
          <div className="mb-1 flex justify-between gap-2">
            <span id="media-storage-label">Storage used</span>
            <span>
              {formatBytes(used)} of {formatBytes(quotaBytes)}
            </span>
          </div>
          <ProgressBar role="meter" value={share} labelledBy="media-storage-label" valueText={`${formatBytes(used)} of ${formatBytes(quotaBytes)} (${share > 0 && share < 1 ? 'under 1' : Math.round(share)}%)`} tone={share >= 90 ? 'danger' : 'neutral'} />
        </div>
      </section>

      <div>
        {children}
        <p className="mt-4 text-sm text-slate-600">{summary}</p>
      </div>

      {items.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center" data-empty-state>
          {q ? (
            <>
              <p className="font-semibold text-ink">No images match “{q}”.</p>
              <a href="/admin/media" className="mt-3 inline-flex text-sm font-medium text-brand-700 hover:underline">
                Show all images
              </a>
            </>
          ) : (
            <>
              <p className="font-semibold text-ink">No images yet.</p>
              <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">Upload pictures here, or from any image field of a service, package, demo or article: they all land in this library.</p>
            </>
          )}
        </div>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3 2xl:grid-cols-4" aria-label="Images">
          {items.map((item) => (
            <MediaCard key={item.id} item={item} fresh={fresh.has(item.id)} onAlt={(alt) => setItems((all) => all.map((i) => (i.id === item.id ? { ...i, alt } : i)))} onDelete={() => void remove(item)} timeZone={timeZone} />
          ))}
        </ul>
      )}
      {dialog}
    </div>
  );
}

function MediaCard({ item, fresh, onAlt, onDelete, timeZone }: { item: MediaItemWithUsage; fresh: boolean; onAlt(alt: string): void; onDelete(): void; timeZone: string }) {
  const headingId = useId();
  const [alt, setAlt] = useState(item.alt);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const name = item.originalName || `Image ${item.id.slice(0, 8)}`;
  const dirty = alt.trim() !== item.alt;
  const inUse = item.usage.length > 0;

  async function saveAlt(e: SubmitEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!dirty || saving) return;
    if (alt.trim().length > MEDIA_ALT_MAX) return setError(`Alt text must be at most ${MEDIA_ALT_MAX} characters`);
    setSaving(true);
    const outcome = await setMediaAlt(item.id, alt);
    setSaving(false);
    if (!outcome.ok) return setError(outcome.message);
    setError(undefined);
    setAlt(outcome.data.alt);
    onAlt(outcome.data.alt);
    toast('success', `Alt text of “${name}” saved.`);
  }

  async function copyAddress() {
    try {
      await navigator.clipboard.writeText(new URL(item.url, window.location.origin).href);
      toast('success', 'Image address copied.');
    } catch {
      toast('error', `Copy failed. The address is ${item.url}`);
    }
  }

  return (
    <li aria-labelledby={headingId} className="flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm" data-media-item={item.id}>
      <a href={item.url} target="_blank" rel="noopener" className="relative block aspect-video overflow-hidden bg-slate-100">
        <img src={mediaVariantUrl(item.id, 400)} alt="" loading="lazy" width={item.width} height={item.height} className="absolute inset-0 h-full w-full object-contain" />
        <span className="sr-only">Open “{name}” at full size (new tab)</span>
      </a>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div>
          <h2 id={headingId} className="text-sm font-semibold text-ink [overflow-wrap:anywhere]">
            {name}
          </h2>
          <p className="text-xs text-slate-600">
            {item.width}×{item.height} · {formatBytes(item.size)} · added {formatInZone(item.createdAt, timeZone, 'date')}
          </p>
        </div>
        <form onSubmit={(e) => void saveAlt(e)} className="space-y-2">
          {!item.alt && (
            <p className={`rounded-lg px-3 py-2 text-xs ${fresh ? 'bg-amber-100 font-medium text-amber-950' : 'bg-amber-50 text-amber-900'}`} data-needs-alt>
              {fresh ? 'Uploaded: now describe it for people who cannot see it.' : 'No alt text yet: it is asked for when a page uses it.'}
            </p>
          )}
          <TextArea
            label="Alt text"
            hint="Its one description: every page that shows it uses it."
            rows={2}
            value={alt}
            onValue={(v) => {
              setAlt(v);
              setError(undefined);
            }}
            error={error}
            maxLength={MEDIA_ALT_MAX * 2}
          />
          {dirty && (
            <div className="flex gap-2">
              <button type="submit" disabled={saving} className={`${button} bg-brand-600 text-white hover:bg-brand-700`}>
                {saving ? 'Saving…' : 'Save alt text'}
              </button>
              <button type="button" onClick={() => setAlt(item.alt)} className={`${button} border border-slate-300 hover:bg-slate-50`}>
                Undo
              </button>
            </div>
          )}
        </form>
        <div className="text-sm">
          {inUse ? (
            <>
              <p className="font-medium text-slate-800">Used by:</p>
              <ul className="mt-1 space-y-0.5 text-slate-700">
                {item.usage.map((u, i) => (
                  <li key={i} className="[overflow-wrap:anywhere]">
                    {u.editHref ? (
                      <a href={u.editHref} className="text-brand-700 hover:underline">
                        {describeUsage(u)}
                      </a>
                    ) : (
                      describeUsage(u)
                    )}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p className="text-slate-600">Not used on the site.</p>
          )}
        </div>
        <div className="mt-auto flex flex-wrap items-center gap-1 border-t border-slate-100 pt-3">
          <button type="button" onClick={() => void copyAddress()} className={`${button} text-slate-700 hover:bg-slate-100`}>
            Copy address<span className="sr-only"> of “{name}”</span>
          </button>
          {inUse ? (
            <p className="ml-auto text-xs text-slate-600">Replace it where it is used to delete it.</p>
          ) : (
            <button type="button" onClick={onDelete} className={`${button} ml-auto text-red-700 hover:bg-red-50`}>
              Delete<span className="sr-only"> “{name}”</span>
            </button>
          )}
        </div>
      </div>
    </li>
  );
}
