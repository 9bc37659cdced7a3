/**
 * The privacy policy and terms editors (/admin/content/privacy, /admin/content/terms): the page's HTML in
 * the rich-text field, saved like every record (Ctrl/Cmd+S, drafts, retries, "saved by someone else"), and
 * "Restore the default text", which puts the built-in text in the editor to review and save.
 */
import { actions } from 'astro:actions';
import { useMemo, useState } from 'react';
import { useConfirm } from '../../components/admin/ConfirmDialog';
import { EditorShell } from '../../components/admin/EditorShell';
import { Section } from '../../components/admin/fields';
import { RichTextField } from '../../components/admin/RichTextField';
import { useRecordEditor, type RecordActions } from '../../components/admin/use-record-editor';
import { Alert } from '../../components/forms/field';
import { POLICY_TITLES, type PolicyKind } from '../../shared/policies';
import { policyFieldsSchema, type PolicyFields } from '../../shared/schemas/policy';

interface Props {
  kind: PolicyKind;
  /** When the stored document was last written ('' for the built-in text). */
  version: string;
  html: string;
  isDefault: boolean;
  defaultHtml: string;
}

const notAvailable = () => Promise.reject(new Error('A policy page is never created, duplicated or deleted.'));

/** The record editor's Actions for one policy: only update exists (the buttons for the others are not shown). */
function policyActions(kind: PolicyKind, onSaved: (isDefault: boolean) => void): RecordActions {
  return {
    create: notAvailable,
    duplicate: notAvailable,
    remove: notAvailable,
    async update({ version, fields }) {
      const { data, error } = await actions.admin.policies.save({ kind, version, fields: fields as PolicyFields });
      if (error || !data) return { error };
      onSaved(data.snapshot.isDefault);
      // The record editor keeps snapshot.updatedAt as the version to send next time.
      return { data: { id: kind, snapshot: { updatedAt: data.version } } };
    },
  };
}

export default function PolicyEditor({ kind, version, html, isDefault, defaultHtml }: Props) {
  const title = POLICY_TITLES[kind];
  const [savedIsDefault, setSavedIsDefault] = useState(isDefault);
  const [confirm, confirmDialog] = useConfirm();
  const recordActions = useMemo(() => policyActions(kind, setSavedIsDefault), [kind]);
  const initial = useMemo(() => ({ id: kind, version, fields: { html } }), [kind, version, html]);
  const editor = useRecordEditor<PolicyFields>({
    type: 'policy',
    actions: recordActions,
    schema: policyFieldsSchema,
    adminPath: `/admin/content/${kind}`,
    initial,
    label: title.toLowerCase(),
  });
  const { fields, setField, errors } = editor;

  const restoreDefault = async () => {
    const replace = await confirm(
      'Replace the text with the default?',
      `The editor then shows the built-in ${title.toLowerCase()}, which names your business and contact address from the site texts. Nothing changes on the site until you save.`,
      'Replace the text',
      'primary',
    );
    if (replace) setField('html', defaultHtml);
  };

  return (
    <EditorShell editor={editor as never} viewHref={`/${kind}`} singleDocument>
      {savedIsDefault && !editor.dirty && (
        <Alert tone="info" testId="policy-default">
          This is the built-in text. It names your business and contact address from the site texts and follows them when they change, until you save your own.
        </Alert>
      )}
      <Section title="Text" description={`Shown at /${kind} under the title “${title}”, with “Last updated” set to the day you save.`}>
        <RichTextField
          label={`${title} text`}
          value={fields.html}
          onValue={(v) => setField('html', v)}
          error={errors.html}
          hint="Sections start at H2 headings: the page’s title above is its only H1. Scripts, styles and event attributes are removed when you save."
        />
        {fields.html !== defaultHtml && (
          <div>
            <button
              type="button"
              onClick={() => void restoreDefault()}
              className="inline-flex h-10 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-ink hover:bg-slate-50"
            >
              Restore the default text
            </button>
          </div>
        )}
      </Section>
      {confirmDialog}
    </EditorShell>
  );
}
