/**
 * What a run keeps of what it fetched: the snapshot without page bodies and file texts (up to megabytes
 * each, and judged already), so the report can list the pages, files and timings behind its findings.
 */
import type { FetchedPage, FetchedTextFile, SiteSnapshot } from './snapshot';

export type StoredPage = Omit<FetchedPage, 'html'>;
export type StoredTextFile = Omit<FetchedTextFile, 'text'>;
export interface StoredSnapshot extends Omit<SiteSnapshot, 'home' | 'pages' | 'robotsTxt' | 'sitemapXml'> {
  home: StoredPage;
  pages: StoredPage[];
  robotsTxt?: StoredTextFile | undefined;
  sitemapXml?: StoredTextFile | undefined;
}

const page = ({ html: _html, ...rest }: FetchedPage): StoredPage => rest;
const textFile = (file: FetchedTextFile | undefined): StoredTextFile | undefined => {
  if (!file) return undefined;
  const { text: _text, ...rest } = file;
  return rest;
};

export function withoutBodies(snapshot: SiteSnapshot): StoredSnapshot {
  return { ...snapshot, home: page(snapshot.home), pages: snapshot.pages.map(page), robotsTxt: textFile(snapshot.robotsTxt), sitemapXml: textFile(snapshot.sitemapXml) };
}
