/**
 * One SEO entry (/admin/seo?page=…): every SEO field of a public page, or the site defaults, with
 * character counters and a live search-result preview computed by the page head's own rules, and the
 * page's choice whether the site name follows its title.
 */
import { actions } from 'astro:actions';
import { EditorShell } from '../../components/admin/EditorShell';
import { DateTimeInput, Section, SelectInput, TextArea, TextInput, Toggle } from '../../components/admin/fields';
import { ImageField } from '../../components/admin/ImageField';
import { useDocumentEditor } from '../../components/admin/use-document-editor';
import { SEO_DESCRIPTION_MAX, SEO_TITLE_MAX } from '../../shared/constants';
import { absoluteUrl, canonicalFor, headTexts, nonEmpty, SEO_LIMITS, seoEntrySchema, type HeadTexts, type SeoEntry } from '../../shared/seo';
import { SearchPreview } from './SearchPreview';

interface Props {
  path: string;
  label: string;
  fields: SeoEntry;
  version: string;
  /** The page's own title and description; for the site defaults, those of the example page. */
  own: { title: string; description: string };
  /** Whether this entry is the site defaults (then `example` is the page the preview shows). */
  isDefaults: boolean;
  example: { path: string; label: string };
  /** The saved site defaults (for a page's preview); the edited values when this entry is the defaults. */
  defaults: { title: string; description: string; image: string };
  site: { siteName: string; tagline: string };
  siteUrl: string;
  /** Told the entry's values once saved. */
  onSaved?(fields: SeoEntry): void;
}

const length = (s: string) => Array.from(s.replace(/\s+/g, ' ').trim()).length;

/** "47 of 60 characters", or what the cut does when over. */
function CutCounter({ uncut, max, what }: { uncut: string; max: number; what: string }) {
  const n = length(uncut);
  const over = n > max;
  return (
    <span data-counter={what} className={over ? 'font-medium text-amber-800' : undefined}>
      {what} as shown: {n} of {max} characters
      {over && ` — over by ${n - max}: search results and the page show the first ${max - 3} and “...”`}
    </span>
  );
}

/** Why the site name follows the title or not, when the page's entry leaves it to the title. */
function titleDecides(path: string, texts: HeadTexts): string {
  if (path === '/') return 'Left to the title: off on the home page, whose own title starts with the site name.';
  return texts.siteNameFollows
    ? 'Left to the title: on, since the title does not name the site.'
    : 'Left to the title: off, since the title already names the site (or ends with a short form of it).';
}

/** The page's choice whether "| {site name}" follows its title; unchosen, the title decides. */
function SiteNameChoice({ path, texts, choice, onChoice }: { path: string; texts: HeadTexts; choice: boolean | null | undefined; onChoice(v: boolean | null): void }) {
  const chosen = typeof choice === 'boolean';
  return (
    <div className="space-y-2" data-site-name-choice={chosen ? 'chosen' : 'title'}>
      <Toggle
        label="Site name follows the title"
        checked={texts.siteNameFollows}
        onChecked={onChoice}
        hint={
          <>
            “{texts.pageTitle} | {texts.siteNameInTitles}” when on, “{texts.pageTitle}” alone when off. {chosen ? 'Your choice for this page.' : titleDecides(path, texts)}
          </>
        }
      />
      {chosen && (
        <button type="button" onClick={() => onChoice(null)} className="text-sm font-medium text-brand-700 underline underline-offset-2 hover:text-brand-900">
          Let the title decide
        </button>
      )}
    </div>
  );
}

export default function SeoEntryEditor(props: Props) {
  const { path, label, version, own, isDefaults, example, site, siteUrl } = props;
  const editor = useDocumentEditor<SeoEntry>({
    draftKey: `seo:${path}`,
    schema: seoEntrySchema,
    initial: { version, fields: props.fields },
    label: isDefaults ? 'SEO site defaults' : `SEO of ${label}`,
    send: (fields, v) => actions.admin.seo.save({ path, version: v, fields: fields as unknown as Record<string, unknown> }),
    fieldPrefix: 'fields',
    onSaved: props.onSaved,
  });
  const { fields: f, setAt, errors } = editor;
  const set = (name: keyof SeoEntry) => (v: string) => setAt([name], v);

  // The preview: this entry applied exactly as the page head applies it.
  const previewPath = isDefaults ? example.path : path;
  const defaults = isDefaults ? f : props.defaults;
  const texts = headTexts({ path: previewPath, stored: isDefaults ? undefined : f, own, defaults, site });
  const canonical = canonicalFor(siteUrl, previewPath, isDefaults ? '' : f.url);
  const image = absoluteUrl(siteUrl, nonEmpty(isDefaults ? '' : f.image) ?? nonEmpty(defaults.image));

  const titleHint = isDefaults ? (
    <>
      Written after each page’s title: “{own.title} | {nonEmpty(f.title) ?? site.siteName}”. Empty: the site name. <CutCounter uncut={texts.uncutTitle} max={SEO_TITLE_MAX} what={`The ${example.label} title`} />
    </>
  ) : (
    <>
      Empty: the page’s own title, “{own.title}”. <CutCounter uncut={texts.uncutTitle} max={SEO_TITLE_MAX} what="Title" />
    </>
  );
  const descriptionHint = isDefaults ? (
    <>Used by pages that have no description of their own. Empty: the tagline.</>
  ) : (
    <>
      Empty: the page’s own description. <CutCounter uncut={texts.uncutDescription} max={SEO_DESCRIPTION_MAX} what="Description" />
    </>
  );

  return (
    <EditorShell editor={editor} viewHref={isDefaults ? undefined : path}>
      {/* The preview follows the fields it shows: beside them from 1280 px, right under them on narrower
          screens (not below every other section, where a phone would have to scroll back and forth). */}
      <div className="grid items-start gap-4 xl:grid-cols-[minmax(0,1fr)_22rem] xl:grid-rows-[auto_1fr] xl:gap-x-6">
        <div className="min-w-0 xl:col-start-1 xl:row-start-1">
          <Section
            title={isDefaults ? 'Site defaults' : 'Search results'}
            description={isDefaults ? 'What every page gets where neither the page nor its own entry says anything.' : 'What search engines show for this page. Leave a field empty to keep the page’s own.'}
          >
            <TextInput
              label={isDefaults ? 'Site name in titles' : 'Title'}
              value={f.title}
              onValue={set('title')}
              error={errors.title}
              placeholder={isDefaults ? site.siteName : own.title}
              hint={titleHint}
              maxLength={SEO_LIMITS.title * 2}
            />
            {!isDefaults && <SiteNameChoice path={path} texts={texts} choice={f.siteNameAfterTitle} onChoice={(v) => setAt(['siteNameAfterTitle'], v)} />}
            <TextArea
              label="Description"
              value={f.description}
              onValue={set('description')}
              error={errors.description}
              placeholder={isDefaults ? site.tagline : own.description}
              hint={descriptionHint}
              rows={3}
            />
            <TextInput
              label="Keywords"
              value={f.keywords}
              onValue={set('keywords')}
              error={errors.keywords}
              hint={`Separated by commas. Few search engines read them; some site search tools do. Up to ${SEO_LIMITS.keywords} characters.`}
            />
          </Section>
        </div>

        <section aria-labelledby="seo-preview-title" className="min-w-0 rounded-2xl border border-slate-200 bg-slate-100/60 p-4 sm:p-6 xl:sticky xl:top-32 xl:col-start-2 xl:row-span-2 xl:row-start-1">
          <h2 id="seo-preview-title" className="text-base font-semibold text-ink">
            Preview{isDefaults ? ` (the ${example.label} page)` : ''}
          </h2>
          <p className="mt-1 mb-4 text-sm text-slate-600">
            Exactly the title and description the page head will carry: titles over {SEO_TITLE_MAX} characters and descriptions over {SEO_DESCRIPTION_MAX} are cut.
          </p>
          <SearchPreview texts={texts} url={canonical} siteName={site.siteName} image={image} />
        </section>

        <div className="min-w-0 space-y-4 xl:col-start-1 xl:row-start-2">
          <Section title="Link preview" description="The picture and author shown when the page is shared in social networks and chats.">
            <ImageField
              label="Image"
              value={f.image}
              onValue={set('image')}
              error={errors.image}
              hint={isDefaults ? 'For pages without an image of their own. Empty: the site logo.' : 'Empty: the page’s own image, else the site default, else the site logo. 1200 × 630 px works everywhere.'}
            />
            <TextInput label="Author" value={f.author} onValue={set('author')} error={errors.author} hint={isDefaults ? 'For pages without an author of their own.' : 'Empty: the page’s own, else the site default.'} />
          </Section>

          {!isDefaults && (
            <Section title="Address and type" description="Usually right as they are: change them only for a reason.">
              <TextInput
                label="Canonical URL"
                value={f.url}
                onValue={set('url')}
                error={errors.url}
                placeholder={canonicalFor(siteUrl, path, '')}
                hint={`The one address search engines should list for this page. Empty: ${canonicalFor(siteUrl, path, '')}.`}
                inputMode="url"
                spellCheck={false}
              />
              <SelectInput
                label="Type"
                value={f.type}
                onValue={(v) => setAt(['type'], v)}
                error={errors.type}
                options={[
                  { value: 'website', label: 'Website (a page of the site)' },
                  { value: 'article', label: 'Article (dated writing, with author and times)' },
                ]}
                hint="Tells link previews what the page is."
              />
              <div className="grid gap-4 sm:grid-cols-2">
                <DateTimeInput label="Published" value={f.publishedTime} onValue={set('publishedTime')} error={errors.publishedTime} hint="In your time zone. Shown for the article type." />
                <DateTimeInput label="Modified" value={f.modifiedTime} onValue={set('modifiedTime')} error={errors.modifiedTime} hint="Empty: the page’s own, if it has one." />
              </div>
            </Section>
          )}
        </div>
      </div>
    </EditorShell>
  );
}
