/**
 * The rows of an admin content list (services, packages, demos, articles, FAQs). The server renders them
 * from the URL's search, filter, sort and page, so the list and its links work without script; with
 * script the rows can be reordered (drag or keyboard, saved at once in one transaction), duplicated and
 * deleted (after a confirmation).
 */
import { actions } from 'astro:actions';
import { useState } from 'react';
import { callAction, IDEMPOTENT_RETRY_MS } from '../../components/admin/call-action';
import { useConfirm } from '../../components/admin/ConfirmDialog';
import { SortableList } from '../../components/admin/SortableList';
import { toast } from '../../components/admin/toasts';
import { formatInZone } from '../../shared/dates';

export interface ContentListRow {
  id: string;
  title: string;
  subtitle: string;
  badges: { label: string; tone: 'success' | 'neutral' | 'warning' }[];
  picture: string;
  updatedAt: string;
  publicPath: string | undefined;
}

interface Props {
  /** The Actions' group: actions.admin[actionsKey]. */
  actionsKey: string;
  adminPath: string;
  labels: { one: string; many: string };
  rows: ContentListRow[];
  reorderable: boolean;
  /** Why the drag handles are off (a search, a filter, another sort), shown once above the list. */
  reorderHint?: string | undefined;
  /** The site's time zone (decision 032): the page header names it. */
  timeZone: string;
}

type ListActions = {
  duplicate(input: { id: string }): Promise<{ data?: unknown; error?: unknown }>;
  remove(input: { id: string }): Promise<{ data?: unknown; error?: unknown }>;
  reorder(input: { ids: string[] }): Promise<{ data?: unknown; error?: unknown }>;
};

const BADGE_TONES = {
  success: 'bg-green-100 text-green-800',
  neutral: 'bg-slate-100 text-slate-700',
  warning: 'bg-amber-100 text-amber-900',
} as const;


export default function ContentList({ actionsKey, adminPath, labels, rows: initialRows, reorderable, reorderHint, timeZone }: Props) {
  const api = (actions.admin as unknown as Record<string, ListActions>)[actionsKey]!;
  const [rows, setRows] = useState(initialRows);
  const [busy, setBusy] = useState(false);
  const [confirm, dialog] = useConfirm();
  // A type without pictures (FAQs), or a page of rows that have none, gets no empty picture column.
  const withPictures = rows.some((r) => r.picture);

  async function reorder(next: ContentListRow[]) {
    const before = rows;
    setRows(next);
    setBusy(true);
    const outcome = await callAction(() => api.reorder({ ids: next.map((r) => r.id) }), { retryForMs: IDEMPOTENT_RETRY_MS });
    setBusy(false);
    if (outcome.ok) toast('success', `Order saved. The site shows the ${labels.many} in this order now.`);
    else {
      setRows(before);
      toast('error', outcome.message);
    }
  }

  async function duplicate(row: ContentListRow) {
    setBusy(true);
    const outcome = await callAction<{ id: string }>(() => api.duplicate({ id: row.id }));
    setBusy(false);
    if (!outcome.ok) return toast('error', outcome.message);
    window.location.assign(`${adminPath}/${encodeURIComponent(outcome.data.id)}?notice=duplicated`);
  }

  async function remove(row: ContentListRow) {
    if (!(await confirm(`Delete “${row.title}”?`, `The ${labels.one} disappears from the site at once. You can restore it from the activity log.`))) return;
    setBusy(true);
    const outcome = await callAction(() => api.remove({ id: row.id }), { retryForMs: IDEMPOTENT_RETRY_MS });
    setBusy(false);
    if (!outcome.ok && outcome.kind !== 'not-found') return toast('error', outcome.message);
    setRows((r) => r.filter((x) => x.id !== row.id));
    toast('success', `Deleted “${row.title}”.`);
  }

  const renderRow = (row: ContentListRow, handle: React.ReactNode) => (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-xl border border-slate-200 bg-white p-2 pr-3 shadow-sm" data-row={row.id}>
      {handle}
      {withPictures && (
        <div className="hidden h-12 w-16 flex-none overflow-hidden rounded-lg bg-slate-100 sm:block">
          {row.picture && <img src={row.picture} alt="" loading="lazy" className="h-full w-full object-cover" />}
        </div>
      )}
      <div className="min-w-0 flex-1 basis-48">
        <div className="flex flex-wrap items-center gap-2">
          <a href={`${adminPath}/${encodeURIComponent(row.id)}`} className="font-semibold text-ink hover:text-brand-700 hover:underline [overflow-wrap:anywhere]">
            {row.title}
          </a>
          {row.badges.map((b) => (
            <span key={b.label} className={`rounded-full px-2 py-0.5 text-xs font-medium ${BADGE_TONES[b.tone]}`}>
              {b.label}
            </span>
          ))}
        </div>
        <p className="truncate text-sm text-slate-600">{row.subtitle}</p>
        <p className="text-xs text-slate-500">Changed {formatInZone(row.updatedAt, timeZone)}</p>
      </div>
      <div className="ml-auto flex flex-none flex-wrap items-center justify-end gap-1">
        {row.publicPath && (
          <a href={row.publicPath} target="_blank" rel="noopener" className="hidden h-9 items-center rounded-lg px-2 text-sm text-slate-700 hover:bg-slate-100 md:inline-flex">
            View<span className="sr-only"> “{row.title}” on the site (opens in a new tab)</span>
          </a>
        )}
        <button type="button" disabled={busy} onClick={() => void duplicate(row)} className="h-9 rounded-lg px-2 text-sm text-slate-700 hover:bg-slate-100">
          Duplicate<span className="sr-only"> “{row.title}”</span>
        </button>
        <button type="button" disabled={busy} onClick={() => void remove(row)} className="h-9 rounded-lg px-2 text-sm text-red-700 hover:bg-red-50">
          Delete<span className="sr-only"> “{row.title}”</span>
        </button>
      </div>
    </div>
  );

  return (
    <div data-content-list>
      {reorderHint && <p className="mb-3 text-sm text-slate-600">{reorderHint}</p>}
      {reorderable ? (
        <SortableList items={rows} idOf={(r) => r.id} labelOf={(r) => r.title} listLabel={labels.many} onReorder={(next) => void reorder(next)} renderItem={(row, handle) => renderRow(row, handle)} disabled={busy} />
      ) : (
        <ul className="space-y-2">
          {rows.map((row) => (
            <li key={row.id}>{renderRow(row, null)}</li>
          ))}
        </ul>
      )}
      {dialog}
    </div>
  );
}
