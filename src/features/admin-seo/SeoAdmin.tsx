/**
 * /admin/seo as one island: the tiles of every page (their titles and descriptions as the heads carry
 * them) and the chosen entry's editor. The saved entries live here, so a save refreshes its tile (and a
 * site-defaults save every tile) without a reload; the tiles are links, rendered on the server too.
 */
import { useCallback, useState } from 'react';
import { SEO_DEFAULTS_PATH } from '../../shared/page-seo';
import type { SeoEntry } from '../../shared/seo';
import SeoEntryEditor from './SeoEntryEditor';
import { SeoPageTiles, type SeoPageSummary } from './SeoPageTiles';

interface Props {
  pages: SeoPageSummary[];
  /** The page whose entry is edited. */
  currentPath: string;
  /** The version its entry was read at. */
  version: string;
  /** The page the site defaults are previewed on. */
  examplePath: string;
  site: { siteName: string; tagline: string };
  siteUrl: string;
}

export default function SeoAdmin({ pages: initialPages, currentPath, version, examplePath, site, siteUrl }: Props) {
  const [pages, setPages] = useState(initialPages);
  const onSaved = useCallback((fields: SeoEntry) => setPages((list) => list.map((p) => (p.path === currentPath ? { ...p, fields, stored: true } : p))), [currentPath]);

  const current = pages.find((p) => p.path === currentPath)!;
  const example = pages.find((p) => p.path === examplePath)!;
  const defaults = pages.find((p) => p.path === SEO_DEFAULTS_PATH)!.fields;
  const isDefaults = currentPath === SEO_DEFAULTS_PATH;
  // The editor opens with the entry as the server read it; later saves come back through onSaved.
  const [opened] = useState(current.fields);

  return (
    <>
      <SeoPageTiles pages={pages} currentPath={currentPath} defaults={defaults} site={site} />
      <h2 className="text-lg font-semibold text-ink">{isDefaults ? 'Site defaults' : `${current.label} (${current.path})`}</h2>
      <p className="mt-1 mb-2 text-sm text-slate-600">{current.note}</p>
      <SeoEntryEditor
        path={currentPath}
        label={current.label}
        fields={opened}
        version={version}
        own={(isDefaults ? example.own : current.own)!}
        isDefaults={isDefaults}
        example={{ path: example.path, label: example.label }}
        defaults={{ title: defaults.title, description: defaults.description, image: defaults.image }}
        site={site}
        siteUrl={siteUrl}
        onSaved={onSaved}
      />
    </>
  );
}
