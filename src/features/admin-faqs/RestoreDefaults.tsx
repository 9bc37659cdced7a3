/** The empty FAQ list's button: the ten built-in FAQs (what the site shows now) become records to edit. */
import { actions } from 'astro:actions';
import { useState } from 'react';
import { callAction } from '../../components/admin/call-action';
import { toast } from '../../components/admin/toasts';

export default function RestoreDefaults() {
  const [busy, setBusy] = useState(false);

  async function restore() {
    setBusy(true);
    const outcome = await callAction(() => actions.admin.faqs.restoreDefaults({}));
    // Restored, or another admin added FAQs meanwhile (refused, nothing doubled): the list has FAQs now.
    if (outcome.ok || outcome.kind === 'conflict') return window.location.assign(outcome.ok ? '/admin/faqs?notice=defaultsRestored' : '/admin/faqs');
    setBusy(false);
    toast('error', outcome.message);
  }

  return (
    <button
      type="button"
      onClick={() => void restore()}
      disabled={busy}
      aria-busy={busy}
      className="inline-flex h-10 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-ink hover:bg-slate-50 disabled:text-slate-400"
    >
      {busy ? 'Restoring…' : 'Restore the ten defaults'}
    </button>
  );
}
