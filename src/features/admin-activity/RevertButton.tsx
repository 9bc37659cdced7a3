/**
 * "Revert" on an activity entry: asks first, then calls `admin.activity.revert` (the server checks that
 * nothing changed the record since and records the revert as an entry of its own) and reloads the list,
 * which then shows the revert with a toast. Not retried: a revert that may have happened must not run
 * twice, and a lost answer shows up in the reloaded list.
 */
import { actions } from 'astro:actions';
import { useState } from 'react';
import { callAction } from '../../components/admin/call-action';
import { useConfirm } from '../../components/admin/ConfirmDialog';
import { toast } from '../../components/admin/toasts';

interface Props {
  entryId: string;
  /** The entry's summary ("Updated service “Lead outreach”: price"), named in the button and the question. */
  summary: string;
}

export default function RevertButton({ entryId, summary }: Props) {
  const [confirm, dialog] = useConfirm();
  const [busy, setBusy] = useState(false);

  async function revert() {
    const ok = await confirm(
      'Revert this change?',
      <>
        <p className="[overflow-wrap:anywhere]">“{summary}”</p>
        <p className="mt-2">The site goes back to how it was before this change, at once. The revert is listed here too, as a change of its own.</p>
      </>,
      'Revert',
      'primary',
    );
    if (!ok) return;
    setBusy(true);
    const outcome = await callAction(() => actions.admin.activity.revert({ id: entryId }));
    if (!outcome.ok) {
      setBusy(false);
      toast('error', outcome.message);
      return;
    }
    const url = new URL(window.location.href);
    url.searchParams.set('notice', 'reverted');
    window.location.assign(url);
  }

  return (
    <>
      <button
        type="button"
        onClick={() => void revert()}
        disabled={busy}
        aria-busy={busy || undefined}
        className="inline-flex h-9 items-center rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold text-ink hover:border-red-600 hover:text-red-700 disabled:opacity-60"
      >
        {busy ? 'Reverting…' : 'Revert'}
        <span className="sr-only"> “{summary}”</span>
      </button>
      {dialog}
    </>
  );
}
