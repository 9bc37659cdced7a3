/** What a page tells the layout about itself for SEO (rendered by SeoHead.astro). */
export interface Breadcrumb {
  name: string;
  path: string;
}

export interface PageSeo {
  title: string;
  description: string;
  /** Path of this page, e.g. "/services" — the key for stored SEO metadata and the canonical URL. */
  path: string;
  image?: string | undefined;
  imageAlt?: string | undefined;
  type?: 'website' | 'article' | undefined;
  author?: string | undefined;
  publishedTime?: Date | undefined;
  modifiedTime?: Date | undefined;
  keywords?: string | undefined;
  /** Extra JSON-LD objects for this page (Article, FAQPage...); Organization and WebSite are added on every page. */
  jsonLd?: Record<string, unknown>[] | undefined;
  breadcrumbs?: Breadcrumb[] | undefined;
  /** FAQs shown on the page, for FAQPage JSON-LD (answers are HTML). */
  faqs?: { question: string; answer: string }[] | undefined;
  noindex?: boolean | undefined;
}
