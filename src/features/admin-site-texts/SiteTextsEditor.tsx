/**
 * The site texts editor (/admin/content): every field of the site texts document, grouped by where it
 * shows on the site, validated with the shared schema, saved as one document with the version it opened.
 */
import { actions } from 'astro:actions';
import { useEffect, useState, type ReactNode } from 'react';
import { EditorShell } from '../../components/admin/EditorShell';
import { NumberInput, Section, TextArea, TextInput } from '../../components/admin/fields';
import { StringListField } from '../../components/admin/StringListField';
import { useDocumentEditor } from '../../components/admin/use-document-editor';
import { maxLengthAt } from '../../shared/site-documents';
import { COPYRIGHT_YEAR_MIN, copyrightYearMax, siteContentSchema, type SiteContent } from '../../shared/site-content';

interface Props {
  content: SiteContent;
  version: string;
}

type Path = (string | number)[];

/** The sections, in page order, for the "On this page" links. */
const SECTIONS = [
  ['site-identity', 'Site and bookings'],
  ['site-hero', 'Hero'],
  ['site-what-we-build', 'What we build'],
  ['site-testimonials', 'Testimonials'],
  ['site-free-audit', 'Free audit call-to-action'],
  ['site-cta', 'Final call-to-action'],
  ['site-footer', 'Footer'],
  ['site-business', 'Business details'],
] as const;

/**
 * Currencies this browser can format, for the currency field's suggestions: read after hydration, since the
 * server's list may differ from the browser's.
 */
function useCurrencies(): readonly string[] {
  const [list, setList] = useState<readonly string[]>([]);
  useEffect(() => setList(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : []), []);
  return list;
}

function priceExample(currency: string): string | undefined {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(1500);
  } catch {
    return undefined;
  }
}

/** Messages by index under `prefix` ("hero.rotatingPhrases.2" → { 2: … }), for list fields. */
const indexed = (errors: Record<string, string>, prefix: string) =>
  Object.fromEntries(Object.entries(errors).flatMap(([k, v]) => (k.startsWith(`${prefix}.`) && /^\d+$/.test(k.slice(prefix.length + 1)) ? [[Number(k.slice(prefix.length + 1)), v]] : [])));

function Anchor({ id, children }: { id: string; children: ReactNode }) {
  return (
    <div id={id} className="scroll-mt-32">
      {children}
    </div>
  );
}

export default function SiteTextsEditor({ content, version }: Props) {
  const editor = useDocumentEditor<SiteContent>({
    draftKey: 'site-content',
    schema: siteContentSchema,
    initial: { version, fields: content },
    label: 'site texts',
    send: (fields, v) => actions.admin.site.save({ version: v, content: fields as unknown as Record<string, unknown> }),
    fieldPrefix: 'content',
  });
  const { fields: f, setAt, errors } = editor;
  const currencies = useCurrencies();

  const max = (path: Path) => maxLengthAt(siteContentSchema, path);
  const counted = (path: Path, value: string, note?: ReactNode) => {
    const limit = max(path);
    return (
      <>
        {note && <>{note} </>}
        {limit !== undefined && (
          <span className={Array.from(value).length > limit ? 'font-semibold text-red-700' : undefined}>
            {Array.from(value).length} / {limit} characters
          </span>
        )}
      </>
    );
  };
  /** A one-line text at `path`, with its counter. */
  const text = (path: Path, label: string, note?: ReactNode, extra: Partial<Parameters<typeof TextInput>[0]> = {}) => {
    const key = path.join('.');
    const value = String(path.reduce<unknown>((o, p) => (o as Record<string | number, unknown>)[p], f) ?? '');
    return <TextInput label={label} value={value} onValue={(v) => setAt(path, v)} error={errors[key]} hint={counted(path, value, note)} {...extra} />;
  };
  const area = (path: Path, label: string, note?: ReactNode, rows = 3) => {
    const key = path.join('.');
    const value = String(path.reduce<unknown>((o, p) => (o as Record<string | number, unknown>)[p], f) ?? '');
    return <TextArea label={label} value={value} onValue={(v) => setAt(path, v)} error={errors[key]} hint={counted(path, value, note)} rows={rows} />;
  };
  const example = priceExample(f.currency);
  const { latitude, longitude } = f.business;
  const mapHref =
    typeof latitude === 'number' && typeof longitude === 'number' && !errors['business.latitude'] && !errors['business.longitude']
      ? `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=15/${latitude}/${longitude}`
      : undefined;

  return (
    <EditorShell editor={editor} viewHref="/">
      <div className="grid gap-6 xl:grid-cols-[11rem_minmax(0,1fr)]">
        <nav aria-label="Site text sections" className="hidden xl:block">
          <ul className="sticky top-32 space-y-1 text-sm">
            {SECTIONS.map(([id, label]) => (
              <li key={id}>
                <a href={`#${id}`} className="block rounded-md px-2 py-1.5 text-slate-700 hover:bg-slate-100 hover:text-ink">
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <div className="min-w-0 space-y-4">
          <Anchor id="site-identity">
            <Section title="Site and bookings" description="The site's name shows in the navigation bar, the footer, every page title and search results; the booking URL is where every “Book a call” button goes.">
              <div className="grid gap-4 md:grid-cols-2">
                {text(['siteName'], 'Site name')}
                {text(['tagline'], 'Tagline', 'Under the name in the footer, and the description of pages that have none of their own.')}
              </div>
              <div className="grid gap-4 md:grid-cols-[12rem_minmax(0,1fr)]">
                <div>
                  <TextInput
                    label="Currency"
                    value={f.currency}
                    onValue={(v) => setAt(['currency'], v.toUpperCase())}
                    error={errors.currency}
                    hint={example ? `Members see prices like ${example}.` : 'A three-letter code such as USD, EUR or GBP.'}
                    list="site-currencies"
                    autoCapitalize="characters"
                    autoComplete="off"
                    spellCheck={false}
                    maxLength={8}
                  />
                  <datalist id="site-currencies">
                    {currencies.map((c) => (
                      <option key={c} value={c} />
                    ))}
                  </datalist>
                </div>
                {text(['bookingUrl'], 'Booking URL', 'Your scheduling page (Cal.com, Calendly…), starting with https://.', { inputMode: 'url', spellCheck: false })}
              </div>
            </Section>
          </Anchor>

          <Anchor id="site-hero">
            <Section title="Hero" description="The top of the landing page: the headline with a phrase that changes every 2 seconds, the sentence under it and the book-a-call button.">
              {text(['hero', 'headline'], 'Headline', 'The rotating phrase follows it on the next line.')}
              <StringListField
                label="Rotating phrases"
                itemLabel="phrase"
                values={f.hero.rotatingPhrases}
                onValues={(v) => setAt(['hero', 'rotatingPhrases'], v)}
                errors={indexed(errors, 'hero.rotatingPhrases')}
                error={errors['hero.rotatingPhrases']}
                hint={`One at a time after the headline, in this order; up to 12, each up to ${max(['hero', 'rotatingPhrases', 0])} characters. Screen readers hear them all in one sentence.`}
                maxItems={12}
                maxLength={max(['hero', 'rotatingPhrases', 0]) ?? 60}
              />
              {area(['hero', 'subheadline'], 'Subheadline', 'Also the landing page’s description in search results, unless its SEO entry sets one.')}
              {text(['hero', 'bookCallLabel'], 'Book-a-call button')}
            </Section>
          </Anchor>

          <Anchor id="site-what-we-build">
            <Section title="What we build" description="The landing page block after the hero: a rotating list of pains and the four offering cards. The cards' titles also sum up the hero on wide screens.">
              <div className="grid gap-4 md:grid-cols-2">
                {text(['whatWeBuild', 'heading'], 'Heading')}
                {text(['whatWeBuild', 'painsIntro'], 'Pains intro', 'The rotating pain follows it.')}
              </div>
              <StringListField
                label="Pains"
                itemLabel="pain"
                values={f.whatWeBuild.pains}
                onValues={(v) => setAt(['whatWeBuild', 'pains'], v)}
                errors={indexed(errors, 'whatWeBuild.pains')}
                error={errors['whatWeBuild.pains']}
                hint={`Shown one at a time; up to 12, each up to ${max(['whatWeBuild', 'pains', 0])} characters.`}
                maxItems={12}
                maxLength={max(['whatWeBuild', 'pains', 0]) ?? 120}
              />
              <div className="grid gap-4 lg:grid-cols-2">
                {f.whatWeBuild.offerings.map((_, i) => (
                  <fieldset key={i} className="min-w-0 space-y-3 rounded-xl border border-slate-200 p-4">
                    <legend className="px-1 text-sm font-semibold text-ink">Offering card {i + 1}</legend>
                    {text(['whatWeBuild', 'offerings', i, 'title'], 'Title')}
                    {area(['whatWeBuild', 'offerings', i, 'text'], 'Text')}
                    {errors[`whatWeBuild.offerings.${i}`] && <p className="text-sm text-red-700">{errors[`whatWeBuild.offerings.${i}`]}</p>}
                  </fieldset>
                ))}
              </div>
            </Section>
          </Anchor>

          <Anchor id="site-testimonials">
            <Section title="Testimonials" description="The four quotes of the landing page's testimonials block.">
              <div className="grid gap-4 lg:grid-cols-2">
                {f.testimonials.map((_, i) => (
                  <fieldset key={i} className="min-w-0 space-y-3 rounded-xl border border-slate-200 p-4">
                    <legend className="px-1 text-sm font-semibold text-ink">Testimonial {i + 1}</legend>
                    {area(['testimonials', i, 'quote'], 'Quote', undefined, 4)}
                    <div className="grid gap-3 sm:grid-cols-2">
                      {text(['testimonials', i, 'name'], 'Name')}
                      {text(['testimonials', i, 'role'], 'Role and company')}
                    </div>
                  </fieldset>
                ))}
              </div>
            </Section>
          </Anchor>

          <Anchor id="site-free-audit">
            <Section title="Free audit call-to-action" description="The landing page block that leads to the free audit request form (/free-audit).">
              {text(['freeAuditCta', 'heading'], 'Heading')}
              {area(['freeAuditCta', 'text'], 'Text')}
              {text(['freeAuditCta', 'buttonLabel'], 'Button')}
            </Section>
          </Anchor>

          <Anchor id="site-cta">
            <Section title="Final call-to-action" description="The last block of the landing page; its button opens the booking URL.">
              {text(['cta', 'heading'], 'Heading')}
              {area(['cta', 'text'], 'Text')}
              {text(['cta', 'buttonLabel'], 'Button')}
            </Section>
          </Anchor>

          <Anchor id="site-footer">
            <Section title="Footer" description="At the bottom of every page. The contact email also appears in the privacy policy and in the structured data search engines read; the copyright line names the year and the site name.">
              {text(['footer', 'contactEmail'], 'Contact email', undefined, { type: 'email', inputMode: 'email', autoComplete: 'off', spellCheck: false })}
              <div className="grid gap-4 md:grid-cols-[14rem_minmax(0,1fr)]">
                {text(['footer', 'socialLabel'], 'Social link label', 'e.g. LinkedIn.')}
                {text(['footer', 'socialUrl'], 'Social link URL', undefined, { inputMode: 'url', spellCheck: false })}
              </div>
              <div className="grid gap-4 md:grid-cols-[14rem_minmax(0,1fr)]">
                <NumberInput
                  label="Copyright year"
                  value={f.footer.copyrightYear}
                  onValue={(v) => setAt(['footer', 'copyrightYear'], v)}
                  error={errors['footer.copyrightYear']}
                  hint={`“© ${typeof f.footer.copyrightYear === 'number' ? f.footer.copyrightYear : '…'} ${f.siteName}. All rights reserved.” A year from ${COPYRIGHT_YEAR_MIN} to ${copyrightYearMax()}.`}
                />
              </div>
            </Section>
          </Anchor>

          <Anchor id="site-business">
            <Section
              title="Business details"
              description="For search engines: the structured data (JSON-LD) on every page names your business and, when you give both coordinates, where it is. The legal name also appears in the privacy policy and terms."
            >
              {text(['business', 'legalName'], 'Legal name')}
              <div className="grid gap-4 sm:grid-cols-2">
                <NumberInput label="Latitude" value={f.business.latitude} onValue={(v) => setAt(['business', 'latitude'], v)} error={errors['business.latitude']} hint="From -90 to 90, e.g. 51.5072. Leave empty for none." />
                <NumberInput label="Longitude" value={f.business.longitude} onValue={(v) => setAt(['business', 'longitude'], v)} error={errors['business.longitude']} hint="From -180 to 180, e.g. -0.1276. Leave empty for none." />
              </div>
              {mapHref && (
                <p className="text-sm">
                  <a href={mapHref} target="_blank" rel="noopener noreferrer" className="font-medium text-brand-700 underline underline-offset-2">
                    Check the location on a map<span className="sr-only"> (opens in a new tab)</span>
                  </a>
                </p>
              )}
            </Section>
          </Anchor>
        </div>
      </div>
    </EditorShell>
  );
}
