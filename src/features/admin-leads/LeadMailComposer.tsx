/**
 * "Email <person>" on a lead's page (issue 23, in a disclosure above the timeline): start from one of the team's templates (or a blank page),
 * edit the subject and message, see it as the lead will read it, and send it through the queue with your
 * address as Reply-To. Placeholders stay as written until the server fills them when sending (the audit link
 * is a new private link made then); the preview fills them with this person's values.
 */
import { actions } from 'astro:actions';
import { useMemo, useRef, useState } from 'react';
import { callAction } from '../../components/admin/call-action';
import { SelectInput, TextArea, TextInput } from '../../components/admin/fields';
import { toast } from '../../components/admin/toasts';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import { fillPlaceholders, LEAD_MAIL_BODY_MAX, LEAD_MAIL_PLACEHOLDERS, LEAD_MAIL_SUBJECT_MAX, type LeadMailValues } from '../../shared/schemas/lead-mail';

export interface MailTemplateItem {
  id: string;
  name: string;
  subject: string;
  body: string;
}

interface Props {
  email: string;
  templates: MailTemplateItem[];
  /** This person's values for the preview; the audit link is described, not made, until sending. */
  values: LeadMailValues;
  /** Whether a report was sent to them (else {{audit_link}} cannot be filled). */
  hasReport: boolean;
}

const BLANK = '';

export default function LeadMailComposer({ email, templates, values, hasReport }: Props) {
  const root = useRef<HTMLDivElement>(null);
  useKeepTypedValues(root);
  const [templateId, setTemplateId] = useState(BLANK);
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const preview = useMemo(() => ({ subject: fillPlaceholders(subject, values), body: fillPlaceholders(body, values) }), [subject, body, values]);

  function choose(id: string) {
    setTemplateId(id);
    const template = templates.find((t) => t.id === id);
    setSubject(template?.subject ?? '');
    setBody(template?.body ?? '');
    setErrors({});
  }

  async function send() {
    setBusy(true);
    const outcome = await callAction(() => actions.admin.leads.sendMail({ email, subject, body }));
    setBusy(false);
    if (outcome.ok) {
      toast('success', `Email to ${email} queued: it shows on the timeline.`);
      choose(BLANK);
    } else if (outcome.kind === 'invalid') {
      setErrors(outcome.fieldErrors);
      if (Object.keys(outcome.fieldErrors).length === 0) toast('error', outcome.message);
    } else toast('error', outcome.message);
  }

  return (
    <div ref={root} className="pt-4">
      <p className="text-sm text-slate-600">
        Sent from the site with your address as Reply-To, so the answer comes to you.{' '}
        <a href="/admin/leads/templates" className="font-medium text-brand-700 underline-offset-2 hover:underline">
          Edit the templates
        </a>
      </p>
      <form
        className="mt-4 grid gap-3"
        data-lead-mail
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <SelectInput label="Start from" value={templateId} onValue={choose} options={[{ value: BLANK, label: 'A blank email' }, ...templates.map((t) => ({ value: t.id, label: t.name }))]} />
        <TextInput label="Subject" value={subject} onValue={setSubject} error={errors.subject} maxLength={LEAD_MAIL_SUBJECT_MAX} />
        <TextArea label="Message" value={body} onValue={setBody} error={errors.body} rows={8} maxLength={LEAD_MAIL_BODY_MAX} hint="Plain text. Placeholders are filled when it is sent." />
        <details className="text-sm">
          <summary className="inline-flex min-h-9 cursor-pointer items-center font-medium text-brand-700 hover:underline">Placeholders</summary>
          <dl className="mt-1 grid gap-1">
            {Object.entries(LEAD_MAIL_PLACEHOLDERS).map(([name, meaning]) => (
              <div key={name}>
                <dt className="inline font-mono text-[0.8125rem] text-ink">{`{{${name}}}`}</dt> <dd className="inline text-slate-600">{name === 'audit_link' && !hasReport ? `${meaning} (none sent yet)` : meaning}</dd>
              </div>
            ))}
          </dl>
        </details>
        {(subject || body) && (
          <div className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm" data-mail-preview>
            <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">Preview</p>
            <p className="mt-1 font-semibold break-words text-ink">{preview.subject}</p>
            <p dir="auto" className="mt-2 break-words whitespace-pre-wrap text-ink">
              {preview.body}
            </p>
          </div>
        )}
        <div>
          <button type="submit" disabled={busy} className="inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60">
            {busy ? 'Sending…' : 'Send email'}
          </button>
        </div>
      </form>
    </div>
  );
}
