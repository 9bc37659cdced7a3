/**
 * How a page appears in search results and link previews, from the same rules the page head follows
 * (shared/seo.ts: the site name after the title, the fallbacks, the 60/160 cuts), so what the admin sees
 * here is what the head carries.
 */
import type { HeadTexts } from '../../shared/seo';

interface Props {
  texts: HeadTexts;
  /** The page's canonical address. */
  url: string;
  siteName: string;
  /** The link-preview image (absolute), when there is one. */
  image: string | undefined;
}

/** "agency.example › services": the address as search results print it. */
function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    const parts = u.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    return [u.host, ...parts].join(' › ');
  } catch {
    return url;
  }
}

export function SearchPreview({ texts, url, siteName, image }: Props) {
  return (
    <div className="space-y-4">
      <figure>
        <figcaption className="mb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">Search result</figcaption>
        <div className="rounded-xl border border-slate-200 bg-white p-4" data-search-preview>
          <div className="flex items-center gap-2">
            <span aria-hidden="true" className="grid h-7 w-7 flex-none place-items-center rounded-full bg-slate-100">
              <img src="/favicon.svg" alt="" className="h-4 w-4" />
            </span>
            <span className="min-w-0 leading-tight">
              <span className="block truncate text-sm text-slate-800">{siteName}</span>
              <span className="block truncate text-xs text-slate-600" data-preview-url>
                {displayUrl(url)}
              </span>
            </span>
          </div>
          <p className="mt-2 text-lg leading-snug text-[#1a0dab] [overflow-wrap:anywhere]" data-preview-title>
            {texts.title}
          </p>
          <p className="mt-1 text-sm leading-relaxed text-slate-700 [overflow-wrap:anywhere]" data-preview-description>
            {texts.description}
          </p>
        </div>
      </figure>
      <figure>
        <figcaption className="mb-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">Link preview (social, chat)</figcaption>
        <div className="overflow-hidden rounded-xl border border-slate-200 bg-white">
          {image ? (
            <img src={image} alt="" className="aspect-[1.91/1] w-full bg-slate-100 object-cover" />
          ) : (
            <div className="flex aspect-[1.91/1] w-full items-center justify-center bg-slate-100 text-sm text-slate-600">No image: the site logo is used</div>
          )}
          <div className="border-t border-slate-200 p-3">
            <p className="truncate text-xs text-slate-600 uppercase">{displayUrl(url).split(' › ')[0]}</p>
            <p className="mt-0.5 line-clamp-2 font-semibold text-ink">{texts.title}</p>
            <p className="mt-0.5 line-clamp-2 text-sm text-slate-600">{texts.description}</p>
          </div>
        </div>
      </figure>
    </div>
  );
}
