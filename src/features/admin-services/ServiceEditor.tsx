/** The service editor (/admin/services/{id}, /admin/services/new): every seed field of a service. */
import { actions } from 'astro:actions';
import { EditorShell } from '../../components/admin/EditorShell';
import { itemErrors } from '../../components/admin/field-errors';
import { Section, TextArea, TextInput, NumberInput } from '../../components/admin/fields';
import { PictureSection } from '../../components/admin/ImageField';
import { RichTextField } from '../../components/admin/RichTextField';
import { StringListField } from '../../components/admin/StringListField';
import { useRecordEditor, type RecordActions } from '../../components/admin/use-record-editor';
import { serviceSchema } from '../../shared/schemas/catalog';
import { LIMITS } from '../../shared/schemas/fields';
import { serviceCardView } from '../../shared/cards';
import { SERVICE_BENEFITS_SHOWN, SERVICE_TEXT_CUT } from '../../shared/constants';

export interface ServiceEditorValues extends Record<string, unknown> {
  name: string;
  picture: string;
  pictureAlt: string;
  price: number | null | string;
  shortText: string;
  description: string;
  benefits: string[];
}

interface Props {
  id?: string | undefined;
  version?: string | undefined;
  fields: ServiceEditorValues;
  currency: string;
}

export default function ServiceEditor({ id, version, fields: initial, currency }: Props) {
  const editor = useRecordEditor<ServiceEditorValues>({
    type: 'service',
    actions: actions.admin.services as unknown as RecordActions,
    schema: serviceSchema,
    adminPath: '/admin/services',
    initial: { id, version, fields: initial },
    label: 'service',
  });
  const { fields, setField, errors } = editor;
  const card = serviceCardView({ shortText: fields.shortText, benefits: fields.benefits });

  return (
    <EditorShell editor={editor as never} viewHref={editor.id ? `/service/${encodeURIComponent(editor.id)}` : undefined}>
      <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="space-y-4">
          <Section title="Service">
            <TextInput label="Name" value={fields.name} onValue={(v) => setField('name', v)} error={errors.name} required maxLength={LIMITS.name * 2} />
            <TextArea
              label="Short text"
              value={fields.shortText}
              onValue={(v) => setField('shortText', v)}
              error={errors.shortText}
              rows={3}
              hint={`Cards show the first ${SERVICE_TEXT_CUT} characters: “${card.text}”`}
            />
            <StringListField
              label="Benefits"
              itemLabel="benefit"
              values={fields.benefits}
              onValues={(v) => setField('benefits', v)}
              errors={itemErrors(errors, 'benefits')}
              error={errors.benefits}
              hint={`Cards show the first ${SERVICE_BENEFITS_SHOWN}; the service's page shows all.`}
              maxItems={30}
              maxLength={300}
            />
            <RichTextField
              label="Description"
              value={fields.description}
              onValue={(v) => setField('description', v)}
              error={errors.description}
              hint="Shown on the service's page. Scripts, styles and event attributes are removed when you save."
            />
          </Section>
        </div>
        <div className="space-y-4">
          <Section title="Price" description="Only signed-in members see prices; visitors are asked to sign up.">
            <NumberInput label={`Price (${currency})`} value={fields.price} onValue={(v) => setField('price', v)} error={errors.price} hint="Leave empty for no price." />
          </Section>
          <PictureSection fields={fields} errors={errors} setField={setField} />
          {editor.id !== undefined && (
            <Section title="Address" description="Changing the URL name moves the page; the old address keeps working (it redirects).">
              <TextInput label="URL name" value={editor.newId} onValue={editor.setNewId} error={errors.id} hint={`/service/${editor.newId || '…'}`} />
            </Section>
          )}
        </div>
      </div>
    </EditorShell>
  );
}
