/**
 * A person's stage and owner (issue 23), saved as they are picked through admin.leads.* Actions. One pair
 * per person (issue 35): the lead's page and each of their audit requests show these same two, never a
 * status of their own, so no screen gives two answers.
 */
import { actions } from 'astro:actions';
import type { ReactNode } from 'react';
import { Section, SelectInput } from './fields';
import { useInstantSave } from './use-instant-save';
import { LEAD_STAGE_LABELS, LEAD_STAGES, type LeadStage } from '../../shared/schemas/lead-work';

interface Props {
  email: string;
  stage: LeadStage;
  ownerId: string | null;
  admins: { id: string; label: string }[];
  /** Under the heading: where else this pair shows. */
  description?: ReactNode;
}

const NOBODY = '';

export default function StageAndOwner({ email, stage: initialStage, ownerId, admins, description }: Props) {
  // Setting a stage or an owner is idempotent: safe to retry through a dropped connection.
  const stage = useInstantSave<LeadStage>(initialStage, (next) => actions.admin.leads.setStage({ email, stage: next }), (next) => `Stage: ${LEAD_STAGE_LABELS[next]}.`);
  const owner = useInstantSave(
    ownerId ?? NOBODY,
    (next) => actions.admin.leads.assign({ email, ownerId: next === NOBODY ? null : next }),
    (next) => (next === NOBODY ? 'Nobody owns this lead now.' : `Owned by ${admins.find((a) => a.id === next)?.label ?? 'the admin'}.`),
  );
  return (
    <Section title="Stage and owner" description={description}>
      <div className="grid gap-4">
        <SelectInput
          label="Stage"
          value={stage.value}
          onValue={(v) => void stage.change(v)}
          options={LEAD_STAGES.map((s) => ({ value: s, label: LEAD_STAGE_LABELS[s] }))}
          hint={stage.saving ? 'Saving…' : 'Saved at once, recorded in the activity log and on the timeline.'}
        />
        <SelectInput
          label="Owner"
          value={owner.value}
          onValue={(v) => void owner.change(v)}
          options={[{ value: NOBODY, label: 'Nobody' }, ...admins.map((a) => ({ value: a.id, label: a.label }))]}
          hint={owner.saving ? 'Saving…' : 'Any admin of the site. Replies to their mails reach the owner.'}
        />
      </div>
    </Section>
  );
}
