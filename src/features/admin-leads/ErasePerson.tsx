/**
 * "Erase this person" on /admin/leads/[person] (issue 39, GDPR article 17): asks the server what would go,
 * names it in the confirmation with what is kept, and erases on the admin's word; then the leads list,
 * where the person no longer is. Nothing is erased without the confirmation.
 */
import { actions } from 'astro:actions';
import { useState } from 'react';
import { callAction } from '../../components/admin/call-action';
import { useConfirm } from '../../components/admin/ConfirmDialog';
import { ERASE_KEEPS, erasedLines, type ErasedCounts } from '../../shared/erase-person';

export default function ErasePerson({ email, name }: { email: string; name: string }) {
  const [confirm, dialog] = useConfirm();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function erase() {
    setError(undefined);
    setBusy(true);
    const preview = await callAction<ErasedCounts>(() => actions.admin.leads.erasePreview({ email }));
    setBusy(false);
    if (!preview.ok) return setError(preview.message);
    const ok = await confirm(
      `Erase ${name} for good?`,
      <div className="space-y-3" data-erase-summary>
        <p>Everything the site keeps about {email} is deleted now, and cannot be brought back:</p>
        <ul className="list-disc space-y-0.5 pl-5">
          {erasedLines(preview.data).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <p>Kept:</p>
        <ul className="list-disc space-y-0.5 pl-5">
          {ERASE_KEEPS.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <p>Backups taken before now still hold them until they are replaced.</p>
      </div>,
      'Erase for good',
    );
    if (!ok) return;
    setBusy(true);
    const outcome = await callAction<ErasedCounts>(() => actions.admin.leads.erase({ email }));
    if (!outcome.ok) {
      setBusy(false);
      return setError(outcome.message);
    }
    window.location.assign('/admin/leads?notice=erased');
  }

  return (
    <section aria-labelledby="erase-heading" className="rounded-2xl border border-red-200 bg-white p-4 shadow-sm sm:p-6" data-erase-person>
      <h2 id="erase-heading" className="text-base font-semibold text-ink">
        Erase this person
      </h2>
      <p className="mt-1 text-sm text-slate-600">When they ask you to delete everything you have on them (GDPR article 17): their requests, reports, chats, emails, notes, bookings and member account.</p>
      <button type="button" onClick={() => void erase()} disabled={busy} className="mt-4 inline-flex h-10 items-center rounded-lg border border-red-300 bg-white px-4 text-sm font-semibold text-red-700 hover:bg-red-50 disabled:opacity-60">
        {busy ? 'Working…' : 'Erase this person…'}
      </button>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
      {dialog}
    </section>
  );
}
