/**
 * Working one lead (/admin/leads/[person], issue 23): their stage, who owns them, the day to follow up and
 * the team's notes. Stage and owner are saved as they are picked; the follow-up day with its own button.
 * Each change goes through an admin.leads.* Action, is recorded in the activity log and shows on the
 * person's timeline after a reload.
 */
import { actions } from 'astro:actions';
import { useRef, useState } from 'react';
import { callAction, IDEMPOTENT_RETRY_MS } from '../../components/admin/call-action';
import StageAndOwner from '../../components/admin/StageAndOwner';
import NotesSection, { type NoteItem } from '../../components/admin/NotesSection';
import { Section, TextInput } from '../../components/admin/fields';
import { toast } from '../../components/admin/toasts';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import { dayHeading, followUpLabel } from '../../shared/lead-people';
import { LEAD_NOTE_MAX, type LeadStage } from '../../shared/schemas/lead-work';

interface Props {
  email: string;
  stage: LeadStage;
  ownerId: string | null;
  followUpOn: string | null;
  admins: { id: string; label: string }[];
  notes: NoteItem[];
  /** Today in the site's time zone ("2026-11-26"): the earliest follow-up day. */
  today: string;
  timeZone: string;
}


export default function LeadWorkPanel(props: Props) {
  const root = useRef<HTMLDivElement>(null);
  useKeepTypedValues(root);
  const [followUp, setFollowUp] = useState(props.followUpOn);
  const [dayDraft, setDayDraft] = useState(props.followUpOn ?? '');
  const [dayError, setDayError] = useState<string | undefined>();
  const [savingDay, setSavingDay] = useState(false);

  async function saveFollowUp(next: string | null) {
    if (next === '') {
      setDayError('Choose a day, or clear the follow-up');
      return;
    }
    setSavingDay(true);
    const outcome = await callAction(() => actions.admin.leads.setFollowUp({ email: props.email, followUpOn: next }), { retryForMs: IDEMPOTENT_RETRY_MS });
    setSavingDay(false);
    if (outcome.ok) {
      setFollowUp(next);
      setDayDraft(next ?? '');
      setDayError(undefined);
      toast('success', next ? `Follow up on ${dayHeading(next)}.` : 'No follow-up set.');
    } else if (outcome.kind === 'invalid') setDayError(outcome.fieldErrors.followUpOn ?? outcome.message);
    else toast('error', outcome.message);
  }

  return (
    <div ref={root} className="grid gap-6" data-lead-work>
      <StageAndOwner email={props.email} stage={props.stage} ownerId={props.ownerId} admins={props.admins} />
      <Section title="Next follow-up" description={followUp ? `${followUpLabel(followUp, props.today)}.` : 'No follow-up set.'}>
        {/* The server's rule says what is wrong beside the field (the picker's min only greys earlier days). */}
        <form
          className="grid gap-3"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void saveFollowUp(dayDraft);
          }}
        >
          <TextInput type="date" label="Follow up on" value={dayDraft} onValue={setDayDraft} min={props.today} error={dayError} hint="A day of the site’s time zone; the leads list shows who is due." />
          <div className="flex flex-wrap gap-2">
            <button type="submit" disabled={savingDay} className="inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60">
              {savingDay ? 'Saving…' : 'Set follow-up'}
            </button>
            {followUp && (
              <button type="button" disabled={savingDay} onClick={() => void saveFollowUp(null)} className="inline-flex h-10 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-ink hover:bg-slate-50 disabled:opacity-60">
                Clear
              </button>
            )}
          </div>
        </form>
      </Section>
      <NotesSection
        notes={props.notes}
        maxLength={LEAD_NOTE_MAX}
        timeZone={props.timeZone}
        description="Only admins see these; the person never does."
        add={(body) => actions.admin.leads.addNote({ email: props.email, body })}
        itemTestId="lead-note"
      />
    </div>
  );
}
