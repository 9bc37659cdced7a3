/** The demo editor (/admin/demos/{id}, /admin/demos/new): every seed field of a demo build. */
import { actions } from 'astro:actions';
import { EditorShell } from '../../components/admin/EditorShell';
import { itemErrors } from '../../components/admin/field-errors';
import { Section, TextArea, TextInput } from '../../components/admin/fields';
import { RichTextField } from '../../components/admin/RichTextField';
import { ImageField } from '../../components/admin/ImageField';
import { StringListField } from '../../components/admin/StringListField';
import { useRecordEditor, type RecordActions } from '../../components/admin/use-record-editor';
import { demoCardView } from '../../shared/cards';
import { DEMO_SUITABLE_FOR_SHOWN, DEMO_TEXT_CUT } from '../../shared/constants';
import { demoSchema } from '../../shared/schemas/catalog';
import { LIMITS } from '../../shared/schemas/fields';

export interface DemoEditorValues extends Record<string, unknown> {
  name: string;
  profilePicture: string;
  profilePictureAlt: string;
  shortText: string;
  description: string;
  suitableFor: string[];
}

interface Props {
  id?: string | undefined;
  version?: string | undefined;
  fields: DemoEditorValues;
}


export default function DemoEditor({ id, version, fields: initial }: Props) {
  const editor = useRecordEditor<DemoEditorValues>({
    type: 'demo',
    actions: actions.admin.demos as unknown as RecordActions,
    schema: demoSchema,
    adminPath: '/admin/demos',
    initial: { id, version, fields: initial },
    label: 'demo',
  });
  const { fields, setField, errors } = editor;
  const card = demoCardView({ shortText: fields.shortText, suitableFor: fields.suitableFor });

  return (
    <EditorShell editor={editor as never} viewHref={editor.id ? `/demo/${encodeURIComponent(editor.id)}` : undefined}>
      <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="space-y-4">
          <Section title="Demo">
            <TextInput label="Name" value={fields.name} onValue={(v) => setField('name', v)} error={errors.name} required maxLength={LIMITS.name * 2} />
            <TextArea
              label="Short text"
              value={fields.shortText}
              onValue={(v) => setField('shortText', v)}
              error={errors.shortText}
              rows={3}
              hint={card.text ? `Cards show the first ${DEMO_TEXT_CUT} characters: “${card.text}”` : `Cards show the first ${DEMO_TEXT_CUT} characters.`}
            />
            <StringListField
              label="Suitable for"
              itemLabel="audience"
              values={fields.suitableFor}
              onValues={(v) => setField('suitableFor', v)}
              errors={itemErrors(errors, 'suitableFor')}
              error={errors.suitableFor}
              hint={`Who this build is for (“Dental clinics”). Cards show the first ${DEMO_SUITABLE_FOR_SHOWN} and a count; the demo's page shows all.`}
              maxItems={30}
              maxLength={120}
            />
            <RichTextField
              label="Description"
              value={fields.description}
              onValue={(v) => setField('description', v)}
              error={errors.description}
              hint="Shown on the demo's page. Scripts, styles and event attributes are removed when you save."
            />
          </Section>
        </div>
        <div className="space-y-4">
          <Section title="Profile picture" description="Shown on the demo's card and at the top of its page.">
            <ImageField
              label="Profile picture URL"
              value={fields.profilePicture}
              onValue={(v) => setField('profilePicture', v)}
              error={errors.profilePicture}
              alt={fields.profilePictureAlt}
              onAlt={(v) => setField('profilePictureAlt', v)}
              altError={errors.profilePictureAlt}
              altRequired
            />
          </Section>
          {editor.id !== undefined && (
            <Section title="Address" description="Changing the URL name moves the page; the old address keeps working (it redirects).">
              <TextInput label="URL name" value={editor.newId} onValue={editor.setNewId} error={errors.id} hint={`/demo/${editor.newId || '…'}`} />
            </Section>
          )}
        </div>
      </div>
    </EditorShell>
  );
}
