/**
 * The team's email templates for leads (/admin/leads/templates): each one's name, subject and message,
 * saved on its own; a new one added at the end; deleting asks first. Placeholders are checked by the
 * server when saved, and an unknown one is named beside its field.
 */
import { actions } from 'astro:actions';
import { useRef, useState } from 'react';
import { useConfirm } from '../../components/admin/ConfirmDialog';
import { callAction } from '../../components/admin/call-action';
import { TextArea, TextInput } from '../../components/admin/fields';
import { toast } from '../../components/admin/toasts';
import { useKeepTypedValues } from '../../components/forms/keep-typed-values';
import { LEAD_MAIL_BODY_MAX, LEAD_MAIL_PLACEHOLDERS, LEAD_MAIL_SUBJECT_MAX } from '../../shared/schemas/lead-mail';
import type { MailTemplateItem } from './LeadMailComposer';

type Draft = MailTemplateItem & { key: string; saved: boolean };

const toDraft = (t: MailTemplateItem): Draft => ({ ...t, key: t.id, saved: true });

export default function MailTemplatesEditor({ templates }: { templates: MailTemplateItem[] }) {
  const root = useRef<HTMLDivElement>(null);
  useKeepTypedValues(root);
  const [drafts, setDrafts] = useState<Draft[]>(templates.map(toDraft));
  const [errors, setErrors] = useState<Record<string, Record<string, string>>>({});
  const [busy, setBusy] = useState<string | undefined>();
  const [confirm, dialog] = useConfirm();

  const change = (key: string, patch: Partial<MailTemplateItem>) => setDrafts((all) => all.map((d) => (d.key === key ? { ...d, ...patch, saved: false } : d)));

  async function save(d: Draft) {
    setBusy(d.key);
    const outcome = await callAction<MailTemplateItem>(() => actions.admin.leads.saveMailTemplate({ id: d.id || null, name: d.name, subject: d.subject, body: d.body }));
    setBusy(undefined);
    if (outcome.ok) {
      setDrafts((all) => all.map((x) => (x.key === d.key ? { ...outcome.data, key: d.key, saved: true } : x)));
      setErrors((e) => ({ ...e, [d.key]: {} }));
      toast('success', `Template “${outcome.data.name}” saved.`);
    } else if (outcome.kind === 'invalid') {
      setErrors((e) => ({ ...e, [d.key]: outcome.fieldErrors }));
      if (Object.keys(outcome.fieldErrors).length === 0) toast('error', outcome.message);
    } else toast('error', outcome.message);
  }

  async function remove(d: Draft) {
    if (!(await confirm(`Delete “${d.name || 'this template'}”?`, 'Emails already sent stay on the timelines.'))) return;
    if (!d.id) {
      setDrafts((all) => all.filter((x) => x.key !== d.key));
      return;
    }
    setBusy(d.key);
    const outcome = await callAction(() => actions.admin.leads.deleteMailTemplate({ id: d.id }));
    setBusy(undefined);
    if (outcome.ok || outcome.kind === 'not-found') {
      setDrafts((all) => all.filter((x) => x.key !== d.key));
      toast('success', 'Template deleted.');
    } else toast('error', outcome.message);
  }

  return (
    <div ref={root} className="grid gap-4">
      {dialog}
      <p className="text-sm text-slate-600">
        Placeholders: {Object.keys(LEAD_MAIL_PLACEHOLDERS).map((p, i) => (
          <span key={p}>
            {i > 0 && ', '}
            <code className="text-ink">{`{{${p}}}`}</code>
          </span>
        ))}
        .
      </p>
      {drafts.length === 0 && <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">No templates yet. Add one to start emails to leads from it.</p>}
      {drafts.map((d, i) => (
        <form
          key={d.key}
          data-mail-template={d.name}
          aria-label={`Template ${d.name || i + 1}`}
          className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
          onSubmit={(e) => {
            e.preventDefault();
            void save(d);
          }}
        >
          <TextInput label="Name" value={d.name} onValue={(name) => change(d.key, { name })} error={errors[d.key]?.name} maxLength={80} />
          <TextInput label="Subject" value={d.subject} onValue={(subject) => change(d.key, { subject })} error={errors[d.key]?.subject} maxLength={LEAD_MAIL_SUBJECT_MAX} />
          <TextArea label="Message" value={d.body} onValue={(body) => change(d.key, { body })} error={errors[d.key]?.body} rows={11} maxLength={LEAD_MAIL_BODY_MAX} />
          <div className="flex flex-wrap items-center gap-3">
            <button type="submit" disabled={busy === d.key} className="inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60">
              {busy === d.key ? 'Saving…' : 'Save template'}
            </button>
            <button type="button" onClick={() => void remove(d)} disabled={busy === d.key} className="inline-flex h-10 items-center rounded-lg border border-red-300 bg-white px-4 text-sm font-semibold text-red-700 hover:bg-red-50 disabled:opacity-60">
              Delete
            </button>
            {!d.saved && <span className="text-sm text-slate-600">Not saved yet.</span>}
          </div>
        </form>
      ))}
      <div>
        <button
          type="button"
          onClick={() => setDrafts((all) => [...all, { id: '', key: crypto.randomUUID(), name: '', subject: '', body: '', saved: false }])}
          className="inline-flex h-10 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-ink hover:bg-slate-50"
        >
          Add a template
        </button>
      </div>
    </div>
  );
}
