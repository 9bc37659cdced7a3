/**
 * The landing page layout (/admin/landing-page-config): the ten blocks in page order, reordered by drag or
 * keyboard, each shown or hidden, reset to the seed's order, with a live preview of the real landing page
 * following the unsaved layout. Saving makes it the landing page at once.
 */
import { actions } from 'astro:actions';
import { useId } from 'react';
import { useConfirm } from '../../components/admin/ConfirmDialog';
import { EditorShell } from '../../components/admin/EditorShell';
import { Section } from '../../components/admin/fields';
import { SortableList } from '../../components/admin/SortableList';
import { useDocumentEditor } from '../../components/admin/use-document-editor';
import { Alert } from '../../components/forms/field';
import { DEFAULT_LANDING_LAYOUT, LANDING_BLOCK_LABELS, landingLayoutSchema, visibleBlocks, type LandingBlock, type LandingLayout } from '../../shared/landing';
import { LandingPreview } from './LandingPreview';

interface Props {
  layout: LandingLayout;
  version: string;
}

/** What each block shows, so the admin knows which is which. */
const BLOCK_NOTES: Record<LandingBlock, string> = {
  hero: 'Headline with the rotating phrase and the book-a-call button.',
  'what-we-build': 'The rotating pains and the four offering cards.',
  services: 'The first four services, with View All links.',
  packages: 'The first four active packages.',
  demos: 'The first four demo builds.',
  articles: 'The four newest published articles.',
  testimonials: 'The four quotes.',
  faqs: 'The questions and answers (accordion).',
  'free-audit-cta': 'Leads to the free audit request form.',
  cta: 'The closing block with the book-a-call button.',
};

const same = (a: LandingLayout, b: LandingLayout) => JSON.stringify(a.order) === JSON.stringify(b.order) && a.hidden.length === b.hidden.length && a.hidden.every((h) => b.hidden.includes(h));

export default function LandingLayoutEditor({ layout, version }: Props) {
  const editor = useDocumentEditor<LandingLayout>({
    draftKey: 'landing',
    schema: landingLayoutSchema,
    initial: { version, fields: layout },
    label: 'landing page layout',
    send: (fields, v) => actions.admin.landing.save({ version: v, layout: fields as unknown as Record<string, unknown> }),
    fieldPrefix: 'layout',
    savedMessage: 'Saved. The landing page shows this layout now.',
  });
  const [confirm, dialog] = useConfirm();
  const listId = useId();
  const { fields, setAt, errors, status } = editor;
  const shown = visibleBlocks(fields);
  const busy = status.kind === 'saving' || status.kind === 'retrying';
  const isDefault = same(fields, DEFAULT_LANDING_LAYOUT);

  const toggle = (block: LandingBlock) =>
    setAt(['hidden'], fields.hidden.includes(block) ? fields.hidden.filter((b) => b !== block) : [...fields.hidden, block]);

  const reset = async () => {
    const ok = await confirm(
      'Reset the landing page to the default order?',
      'All ten blocks are shown again, in the order the site started with. Visitors see it at once; you can undo it from the activity log.',
      'Reset and save',
      'primary',
    );
    if (ok) await editor.saveValues(DEFAULT_LANDING_LAYOUT);
  };

  const resetButton = (
    <button
      type="button"
      onClick={() => void reset()}
      disabled={busy || (isDefault && !editor.dirty)}
      className="inline-flex h-10 items-center justify-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-ink hover:bg-slate-50 disabled:text-slate-400"
    >
      Reset to the default order
    </button>
  );

  return (
    <EditorShell editor={editor} viewHref="/" barActions={resetButton}>
      <div className="grid items-start gap-6 xl:grid-cols-[minmax(20rem,24rem)_minmax(0,1fr)]">
        <Section
          title="Blocks"
          description={
            <>
              Drag a block by its handle, or focus the handle and press Space, then the arrow keys, then Space to drop it. <span id={`${listId}-count`}>{shown.length} of {fields.order.length} shown.</span>
            </>
          }
        >
          {(errors.order || errors.hidden) && <Alert tone="error">{errors.order ?? errors.hidden}</Alert>}
          {shown.length === 0 && (
            <Alert tone="info" testId="all-hidden">
              Every block is hidden: the landing page would show only the navigation bar and the footer.
            </Alert>
          )}
          <div data-landing-blocks>
            <SortableList
              items={fields.order}
              idOf={(b) => b}
              labelOf={(b) => LANDING_BLOCK_LABELS[b]}
              listLabel="landing page blocks"
              disabled={busy}
              onReorder={(next) => setAt(['order'], next)}
              renderItem={(block, handle, index) => {
                const hidden = fields.hidden.includes(block);
                return (
                  <div data-block={block} className={`flex items-center gap-2 rounded-xl border p-2 pr-3 ${hidden ? 'border-dashed border-slate-300 bg-slate-50' : 'border-slate-200 bg-white'}`}>
                    {handle}
                    <span className="w-6 flex-none text-center text-sm font-semibold text-slate-500 tabular-nums" aria-hidden="true">
                      {index + 1}
                    </span>
                    <span className="min-w-0 flex-1">
                      <span className={`block text-sm font-semibold ${hidden ? 'text-slate-600 line-through' : 'text-ink'}`}>{LANDING_BLOCK_LABELS[block]}</span>
                      <span className="block text-xs text-slate-600">{hidden ? 'Hidden: visitors do not see it.' : BLOCK_NOTES[block]}</span>
                    </span>
                    <label className="flex flex-none cursor-pointer items-center gap-2 text-sm text-slate-700">
                      <input
                        type="checkbox"
                        checked={!hidden}
                        onChange={() => toggle(block)}
                        disabled={busy}
                        className="h-5 w-5 accent-brand-600"
                        aria-label={`Shown: ${LANDING_BLOCK_LABELS[block]}`}
                        aria-describedby={`${listId}-count`}
                      />
                      Shown
                    </label>
                  </div>
                );
              }}
            />
          </div>
        </Section>

        <div className="min-w-0 xl:sticky xl:top-32">
          <LandingPreview blocks={shown} />
        </div>
      </div>
      {dialog}
    </EditorShell>
  );
}
