/**
 * What each card shows (seed section 2 "Cards", section 9 "Items shown on cards" and "Text cuts").
 * Pure view-model rules, so the landing page, the list pages and the tests agree on one definition.
 */
import {
  ARTICLE_EXCERPT_WORDS,
  ARTICLE_TAGS_SHOWN,
  DEMO_SUITABLE_FOR_SHOWN,
  DEMO_TEXT_CUT,
  PACKAGE_FEATURES_SHOWN,
  PACKAGE_SERVICES_SHOWN,
  PACKAGE_TEXT_CUT,
  SERVICE_BENEFITS_SHOWN,
  SERVICE_TEXT_CUT,
} from './constants';
import { cardText, firstWords, stripHtml, takeWithRest } from './text';

/** "+2 more" under a shortened list; empty when nothing was left out. */
export function moreLabel(rest: number): string {
  return rest > 0 ? `+${rest} more` : '';
}

export function serviceCardView(service: { shortText: string; benefits: readonly string[] }) {
  const benefits = takeWithRest(service.benefits, SERVICE_BENEFITS_SHOWN);
  return { text: cardText(service.shortText, SERVICE_TEXT_CUT), benefits: benefits.shown, moreBenefits: benefits.rest };
}

export function demoCardView(demo: { shortText: string; suitableFor: readonly string[] }) {
  const suitable = takeWithRest(demo.suitableFor, DEMO_SUITABLE_FOR_SHOWN);
  return { text: cardText(demo.shortText, DEMO_TEXT_CUT), suitableFor: suitable.shown, moreSuitableFor: suitable.rest };
}

export function packageCardView<S extends { shortText: string }, F>(
  pkg: { shortText: string; features: readonly F[] },
  includedServices: readonly S[],
) {
  const services = takeWithRest(includedServices, PACKAGE_SERVICES_SHOWN);
  const features = takeWithRest(pkg.features, PACKAGE_FEATURES_SHOWN);
  return {
    text: cardText(pkg.shortText, PACKAGE_TEXT_CUT),
    // Included service texts may hold HTML too; on a card they are plain and short.
    services: services.shown.map((s) => ({ ...s, shortText: cardText(s.shortText, SERVICE_TEXT_CUT) })),
    moreServices: services.rest,
    features: features.shown,
    moreFeatures: features.rest,
  };
}

/** The article's excerpt, or the first 20 words of its stripped content when the excerpt is blank. */
export function articleExcerpt(article: { excerpt: string; content: string }): string {
  const excerpt = stripHtml(article.excerpt);
  return excerpt || firstWords(article.content, ARTICLE_EXCERPT_WORDS);
}

export function articleCardView(article: { excerpt: string; content: string; tags: readonly string[] }) {
  const tags = takeWithRest(article.tags, ARTICLE_TAGS_SHOWN);
  return { excerpt: articleExcerpt(article), tags: tags.shown, moreTags: tags.rest };
}

/** Orders included services as listed in includedServiceIds; ids with no service (deleted) are skipped. */
export function inIncludedOrder<S extends { id: string }>(ids: readonly string[], services: readonly S[]): S[] {
  const byId = new Map(services.map((s) => [s.id, s]));
  return ids.flatMap((id) => {
    const s = byId.get(id);
    return s ? [s] : [];
  });
}
