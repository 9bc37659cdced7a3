/**
 * "Merge with another person" on /admin/leads/[person] (issue 39): the same person under two addresses.
 * The admin types the other address; the server says what of it would move, the confirmation names it, and
 * on the admin's word everything moves onto this person and the other address stays as an alias of theirs.
 */
import { actions } from 'astro:actions';
import { useRef, useState } from 'react';
import { callAction } from '../../components/admin/call-action';
import { useConfirm } from '../../components/admin/ConfirmDialog';
import { Section, TextInput } from '../../components/admin/fields';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import { mergedLines, type MergedCounts } from '../../shared/merge-people';

export default function MergePerson({ email, name }: { email: string; name: string }) {
  const root = useRef<HTMLFormElement>(null);
  useKeepTypedValues(root);
  const [confirm, dialog] = useConfirm();
  const [other, setOther] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function merge() {
    const address = other.trim();
    if (!address) return setError('Type the other address of this person.');
    setError(undefined);
    setBusy(true);
    const preview = await callAction<MergedCounts>(() => actions.admin.leads.mergePreview({ email, other: address }));
    setBusy(false);
    if (!preview.ok) return setError(preview.kind === 'invalid' ? (preview.fieldErrors.other ?? preview.message) : preview.message);
    const ok = await confirm(
      `Merge ${address} into ${name}?`,
      <div className="space-y-3" data-merge-summary>
        <p>What {address} has moves to this person:</p>
        <ul className="list-disc space-y-0.5 pl-5">
          {mergedLines(preview.data).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <p>This person’s stage and owner stay where they have one, else {address}’s are taken; the sooner follow-up day stays. {address} is kept as another address of this person: what comes later with it joins them.</p>
      </div>,
      'Merge',
      'primary',
    );
    if (!ok) return;
    setBusy(true);
    const outcome = await callAction<MergedCounts>(() => actions.admin.leads.merge({ email, other: address }));
    if (!outcome.ok) {
      setBusy(false);
      return setError(outcome.message);
    }
    const url = new URL(window.location.href);
    url.searchParams.set('notice', 'merged');
    window.location.assign(url.toString());
  }

  return (
    <Section title="Merge with another person" description="The same person under two addresses: their timelines, requests, chats, notes and bookings become one.">
      <form
        ref={root}
        className="grid gap-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void merge();
        }}
        data-merge-person
      >
        <TextInput label="Their other address" type="email" autoComplete="off" value={other} onValue={setOther} error={error} maxLength={320} />
        <div>
          <button type="submit" disabled={busy} className="inline-flex h-10 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-ink hover:bg-slate-50 disabled:opacity-60">
            {busy ? 'Working…' : 'Merge…'}
          </button>
        </div>
      </form>
      {dialog}
    </Section>
  );
}
