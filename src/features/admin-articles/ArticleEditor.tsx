/**
 * The article editor (/admin/articles/{id}, /admin/articles/new): every seed field of an article. Writing
 * is the main thing: the title and a tall text that grows as it is written, its toolbar staying in view;
 * everything else (publishing, picture, address, excerpt, tags, search result, author) sits in a side
 * panel on a wide screen and below the text on a phone.
 */
import { actions } from 'astro:actions';
import { useEffect, useState } from 'react';
import { EditorShell } from '../../components/admin/EditorShell';
import { Section, TextArea, TextInput, Toggle } from '../../components/admin/fields';
import { FieldFrame } from '../../components/forms/field';
import { RichTextField } from '../../components/admin/RichTextField';
import { ImageField } from '../../components/admin/ImageField';
import { TagsField } from '../../components/admin/TagsField';
import { useRecordEditor, type RecordActions } from '../../components/admin/use-record-editor';
import { articleExcerpt } from '../../shared/cards';
import { ARTICLE_EXCERPT_WORDS } from '../../shared/constants';
import { ARTICLE_SLUG_MAX, ARTICLE_TAGS_MAX, articleSchema } from '../../shared/schemas/catalog';
import { LIMITS, TAG_MAX_LENGTH, URL_SLUG_PATTERN } from '../../shared/schemas/fields';
import { headTexts } from '../../shared/seo';
import { slugify } from '../../shared/text';

export interface ArticleEditorValues extends Record<string, unknown> {
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  featuredImage: string;
  featuredImageAlt: string;
  authorName: string;
  authorImage: string;
  tags: string[];
  published: boolean;
}

interface Props {
  id?: string | undefined;
  version?: string | undefined;
  fields: ArticleEditorValues;
  /** Tags in use on any article, most used first. */
  tagSuggestions: string[];
  /** For the search-result preview: the name after page titles, and the text when there is no excerpt. */
  site: { siteName: string; tagline: string };
}

const indexed = (errors: Record<string, string>, field: string) =>
  Object.fromEntries(Object.entries(errors).flatMap(([k, v]) => (k.startsWith(`${field}.`) ? [[Number(k.split('.')[1]), v]] : [])));

/** The slug a title gives (empty for an empty title: nothing to show yet). */
const slugOf = (title: string) => (title.trim() ? slugify(title) : '');

/** The public page: a draft opens as the admin's preview (visitors get 404 there). */
const pageHref = (slug: string, published: boolean) => `/article/${encodeURIComponent(slug)}${published ? '' : '?preview'}`;

export default function ArticleEditor({ id, version, fields: initial, tagSuggestions, site }: Props) {
  const editor = useRecordEditor<ArticleEditorValues>({
    type: 'article',
    actions: actions.admin.articles as unknown as RecordActions,
    schema: articleSchema,
    adminPath: '/admin/articles',
    initial: { id, version, fields: initial },
    label: 'article',
  });
  const { fields, setField, errors } = editor;
  const isNew = editor.id === undefined;
  // A new article's slug follows its title until the admin types one; it is sent empty meanwhile, so the
  // server makes it unique ("title-2") when another article has it.
  const [slugFollows, setSlugFollows] = useState(isNew && initial.slug === '');
  const shownSlug = slugFollows ? slugOf(fields.title) : fields.slug;
  // What the site has now (the last saved slug and state), for "View on site" and the redirect note.
  const [saved, setSaved] = useState({ slug: initial.slug, published: initial.published });
  useEffect(() => {
    if (editor.status.kind === 'saved' && !editor.dirty) setSaved({ slug: fields.slug, published: fields.published });
  }, [editor.status.kind, editor.dirty, fields.slug, fields.published]);

  const slugMoves = !isNew && saved.published && fields.slug.trim() !== '' && fields.slug.trim() !== saved.slug;
  const cardExcerpt = articleExcerpt({ excerpt: fields.excerpt, content: fields.content });
  // As the article's page heads itself (its title, and its excerpt or first words); an SEO entry saved
  // for the address in /admin/seo overrides both.
  const search = headTexts({ path: `/article/${shownSlug}`, own: { title: fields.title || 'Untitled', description: cardExcerpt || undefined }, site });

  return (
    <EditorShell
      editor={editor as never}
      viewHref={isNew ? undefined : pageHref(saved.slug, saved.published)}
      deleteNote={saved.published ? 'It disappears from the site at once, and its address answers “not found”. You can restore it from the activity log.' : undefined}
    >
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_19rem] 2xl:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0 space-y-4" data-writing-area>
          <FieldFrame
            label="Title"
            error={errors.title}
            input={(a11y) => (
              <input
                {...a11y}
                value={fields.title}
                onChange={(e) => setField('title', e.target.value)}
                required
                maxLength={LIMITS.name * 2}
                placeholder="Article title"
                className="block w-full rounded-lg border border-slate-300 bg-white px-4 py-3 text-2xl font-bold tracking-tight text-ink shadow-sm placeholder:font-normal placeholder:text-slate-400 focus:border-brand-600 focus:outline-2 focus:outline-brand-600 sm:text-3xl aria-invalid:border-red-600"
              />
            )}
          />
          <RichTextField
            label="Content"
            size="document"
            value={fields.content}
            onValue={(v) => setField('content', v)}
            error={errors.content}
            hint="The article itself. Drop or paste a picture into the text to upload it. Scripts, styles and event attributes are removed when you save."
          />
        </div>
        <aside aria-label="Article settings" className="min-w-0 space-y-4">
          <Section title="Publishing">
            <Toggle
              label="Published"
              checked={fields.published}
              onChecked={(v) => setField('published', v)}
              hint={
                fields.published
                  ? 'Visible at its address, on /articles and on the landing page once saved.'
                  : 'A draft: only admins can open it (as a preview). Visitors get “not found”.'
              }
            />
            <TextInput
              label="Author name"
              value={fields.authorName}
              onValue={(v) => setField('authorName', v)}
              error={errors.authorName}
              maxLength={240}
              hint={isNew && initial.authorName ? 'You, from your account. Change it to credit someone else.' : undefined}
            />
          </Section>
          <Section title="Featured image">
            <ImageField
              label="Image URL"
              value={fields.featuredImage}
              onValue={(v) => setField('featuredImage', v)}
              error={errors.featuredImage}
              alt={fields.featuredImageAlt}
              onAlt={(v) => setField('featuredImageAlt', v)}
              altError={errors.featuredImageAlt}
              altRequired
            />
          </Section>
          <Section title="Address and excerpt">
            <TextInput
              label="Slug"
              value={shownSlug}
              onValue={(v) => {
                setSlugFollows(false);
                setField('slug', v);
              }}
              onBlur={() => {
                const typed = fields.slug.trim();
                if (slugFollows) return;
                // Left empty: a new article follows its title again; a saved one takes its title's slug.
                if (typed === '') {
                  if (isNew) setSlugFollows(true);
                  else setField('slug', slugOf(fields.title));
                } else if (!URL_SLUG_PATTERN.test(typed)) setField('slug', slugify(typed));
              }}
              error={errors.slug}
              maxLength={ARTICLE_SLUG_MAX * 2}
              autoCapitalize="none"
              spellCheck={false}
              hint={
                <>
                  Address: <span className="font-mono text-slate-800 [overflow-wrap:anywhere]">/article/{shownSlug || '…'}</span>
                  {slugFollows ? ' · made from the title; if another article has it, a number is added.' : ''}
                  {slugMoves ? ` · the old address /article/${saved.slug} will redirect here.` : ''}
                </>
              }
            />
            <TextArea
              label="Excerpt"
              value={fields.excerpt}
              onValue={(v) => setField('excerpt', v)}
              error={errors.excerpt}
              rows={3}
              hint={
                fields.excerpt.trim()
                  ? 'Shown on the article’s card and under its title.'
                  : `Empty: cards show the first ${ARTICLE_EXCERPT_WORDS} words of the content${cardExcerpt ? `: “${cardExcerpt}”` : '.'}`
              }
            />
          </Section>
          <Section title="Tags" description="Readers filter /articles by tag; cards show the first three.">
            <TagsField
              label="Tags"
              values={fields.tags}
              onValues={(v) => setField('tags', v)}
              suggestions={tagSuggestions}
              errors={indexed(errors, 'tags')}
              error={errors.tags}
              maxItems={ARTICLE_TAGS_MAX}
              maxLength={TAG_MAX_LENGTH}
            />
          </Section>
          <Section
            title="Search result"
            description={
              <>
                From the title and the excerpt. To write other ones for search engines, add this address in{' '}
                <a href="/admin/seo" className="font-medium text-brand-700 underline">
                  SEO
                </a>
                .
              </>
            }
          >
            <div className="rounded-xl border border-slate-200 bg-white p-3" data-search-preview>
              <p className="truncate text-xs text-slate-600">› article › {shownSlug || '…'}</p>
              <p className="mt-1 text-base leading-snug text-[#1a0dab] [overflow-wrap:anywhere]">{search.title}</p>
              <p className="mt-1 text-sm leading-relaxed text-slate-700 [overflow-wrap:anywhere]">{search.description}</p>
            </div>
          </Section>
          <Section title="Author picture">
            <ImageField
              label="Author picture URL"
              value={fields.authorImage}
              onValue={(v) => setField('authorImage', v)}
              error={errors.authorImage}
              hint="Optional. Without one, the author’s initial is shown."
            />
          </Section>
        </aside>
      </div>
    </EditorShell>
  );
}
