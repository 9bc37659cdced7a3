/**
 * The pages /admin/seo edits, one tile each: the title and description its head carries now (the page
 * head's own rules, shared/seo.ts), whether an entry is stored, and a link to its editor. Computed from the
 * saved entries the page holds, so a save shows on its tile (and a site-defaults save on every tile) at once.
 */
import type { OwnSeo } from '../../shared/page-seo';
import { headTexts, nonEmpty, type SeoEntry } from '../../shared/seo';

export interface SeoPageSummary {
  path: string;
  label: string;
  note: string;
  /** The page's own title and description; undefined for the site defaults (not a page). */
  own: OwnSeo | undefined;
  /** The saved entry (empty when none). */
  fields: SeoEntry;
  /** Whether an entry is stored for the path. */
  stored: boolean;
}

interface Props {
  pages: readonly SeoPageSummary[];
  currentPath: string;
  /** The saved site defaults entry. */
  defaults: SeoEntry;
  site: { siteName: string; tagline: string };
}

/** What a tile says: the head's title and description for a page; the name after titles for the defaults. */
function tileTexts(page: SeoPageSummary, defaults: SeoEntry, site: Props['site']): { title: string; description: string } {
  if (!page.own) {
    return { title: `Name after titles: ${nonEmpty(defaults.title) ?? site.siteName}`, description: nonEmpty(defaults.description) ?? site.tagline };
  }
  const texts = headTexts({ path: page.path, stored: page.fields, own: page.own, defaults, site });
  return { title: texts.title, description: texts.description };
}

export function SeoPageTiles({ pages, currentPath, defaults, site }: Props) {
  return (
    <nav aria-label="Pages" className="mb-6">
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {pages.map((page) => {
          const here = page.path === currentPath;
          const { title, description } = tileTexts(page, defaults, site);
          return (
            <li key={page.path} className="min-w-0" data-seo-tile={page.path}>
              <a
                href={`/admin/seo?page=${encodeURIComponent(page.path)}`}
                aria-current={here ? 'page' : undefined}
                className={`block h-full rounded-lg border px-3 py-2 text-sm ${
                  here ? 'border-brand-400 bg-brand-50 text-brand-900 ring-1 ring-brand-400' : 'border-slate-200 bg-white text-slate-800 hover:border-slate-300 hover:bg-slate-50'
                }`}
              >
                <span className="flex items-center justify-between gap-2">
                  <span className="truncate font-semibold">{page.label}</span>
                  {page.stored && <span className="flex-none rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-medium text-emerald-900">Set</span>}
                </span>
                <span className="mt-0.5 block truncate font-mono text-xs text-slate-600">{page.own ? page.path : 'every page'}</span>
                <span className="mt-1 hidden text-xs text-[#1a0dab] md:line-clamp-2" title={title} data-tile-title>
                  {title}
                </span>
                <span className="mt-0.5 hidden text-xs text-slate-600 lg:line-clamp-2" title={description} data-tile-description>
                  {description}
                </span>
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
