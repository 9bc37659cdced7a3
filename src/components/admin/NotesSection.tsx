/**
 * The team's internal notes on a record (an audit request, a lead): the notes oldest first, with author
 * and time in the site's zone, and a form that adds one through the caller's Action. Never shown to the
 * person the notes are about.
 */
import { useState } from 'react';
import { formatInZone } from '../../shared/dates';
import { callAction, type ActionResult } from './call-action';
import { Section, TextArea } from './fields';
import { toast } from './toasts';

export interface NoteItem {
  id: string;
  authorName: string;
  body: string;
  createdAt: string;
}

interface Props {
  notes: NoteItem[];
  maxLength: number;
  timeZone: string;
  description: string;
  /** Sends one note (not retried: a note sent twice would be stored twice). */
  add: (body: string) => Promise<ActionResult<unknown>>;
  /** The test id of each note's item. */
  itemTestId: string;
}

export default function NotesSection(props: Props) {
  const [notes, setNotes] = useState(props.notes);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function addNote() {
    const body = draft.trim();
    if (!body) {
      setError('Note must not be empty');
      return;
    }
    setBusy(true);
    const outcome = await callAction<NoteItem>(() => props.add(body));
    setBusy(false);
    if (outcome.ok) {
      setNotes((n) => [...n, outcome.data]);
      setDraft('');
      setError(undefined);
      toast('success', 'Note added.');
    } else if (outcome.kind === 'invalid') setError(outcome.fieldErrors.body ?? outcome.message);
    else toast('error', outcome.message);
  }

  return (
    <Section title="Internal notes" description={props.description}>
      {notes.length === 0 ? (
        <p className="text-sm text-slate-600">No notes yet.</p>
      ) : (
        <ol className="grid gap-3" aria-label="Notes, oldest first">
          {notes.map((n) => (
            <li key={n.id} className="rounded-lg border border-slate-200 bg-slate-50 p-3" data-testid={props.itemTestId}>
              <p className="text-xs text-slate-600">
                <span className="font-semibold text-slate-800">{n.authorName}</span> · <time dateTime={n.createdAt}>{formatInZone(n.createdAt, props.timeZone)}</time>
              </p>
              <p dir="auto" className="mt-1 text-sm break-words whitespace-pre-wrap text-ink">
                {n.body}
              </p>
            </li>
          ))}
        </ol>
      )}
      <form
        className="mt-4 grid gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void addNote();
        }}
      >
        <TextArea label="New note" value={draft} onValue={setDraft} error={error} rows={3} maxLength={props.maxLength} hint={`Up to ${props.maxLength} characters.`} />
        <div>
          <button type="submit" disabled={busy} className="inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60">
            {busy ? 'Adding…' : 'Add note'}
          </button>
        </div>
      </form>
    </Section>
  );
}
