/** The FAQ editor (/admin/faqs/{id}, /admin/faqs/new): the question and its HTML answer. */
import { actions } from 'astro:actions';
import { EditorShell } from '../../components/admin/EditorShell';
import { Section, TextInput } from '../../components/admin/fields';
import { RichTextField } from '../../components/admin/RichTextField';
import { useRecordEditor, type RecordActions } from '../../components/admin/use-record-editor';
import { faqSchema } from '../../shared/schemas/catalog';

export interface FaqEditorValues extends Record<string, unknown> {
  question: string;
  answer: string;
}

interface Props {
  id?: string | undefined;
  version?: string | undefined;
  fields: FaqEditorValues;
  /** Its place in the accordion (1-based), when saved. */
  position?: number | undefined;
  total: number;
}

export default function FaqEditor({ id, version, fields: initial, position, total }: Props) {
  const editor = useRecordEditor<FaqEditorValues>({
    type: 'faq',
    actions: actions.admin.faqs as unknown as RecordActions,
    schema: faqSchema,
    adminPath: '/admin/faqs',
    initial: { id, version, fields: initial },
    label: 'FAQ',
  });
  const { fields, setField, errors } = editor;
  const place =
    position === undefined
      ? `New FAQs go at the end of the accordion (after the ${total} there now). Reorder them from the FAQ list.`
      : `Number ${position} of ${total} in the landing page’s accordion. Reorder them from the FAQ list.`;

  return (
    <EditorShell editor={editor as never} viewHref={editor.id === undefined ? undefined : '/#faqs'} deleteNote="It disappears from the landing page’s FAQ at once. You can restore it from the activity log.">
      <div className="max-w-3xl space-y-4">
        <Section title="FAQ" description={place}>
          <TextInput label="Question" value={fields.question} onValue={(v) => setField('question', v)} error={errors.question} required maxLength={600} />
          <RichTextField
            label="Answer"
            value={fields.answer}
            onValue={(v) => setField('answer', v)}
            error={errors.answer}
            hint="Shown when a visitor opens the question. Scripts, styles and event attributes are removed when you save."
          />
        </Section>
      </div>
    </EditorShell>
  );
}
