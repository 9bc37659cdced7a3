/**
 * Which of the agency's own services or packages fixes what a check found (issue 22: "each missing piece
 * names this site's matching service or package, by the admin's own content"). The words below only find
 * the offer; what the report shows is the offer's own name and short text, as the admin wrote them. A topic
 * no offer speaks to names nothing (the report never invents one). Pure.
 */
import { FIX_TOPICS, type FixTopic } from '../site-audit/findings';

export interface Offer {
  kind: 'service' | 'package';
  id: string;
  name: string;
  shortText: string;
}

/** Word stems that say an offer is about a topic, matched at the start of a word, case-insensitively. */
const TOPIC_WORDS: Record<FixTopic, readonly string[]> = {
  'lead-capture': ['lead capture', 'lead-capture', 'funnel', 'landing page', 'form', 'capture'],
  booking: ['booking', 'appointment', 'calendar', 'schedul', 'no-show', 'reminder'],
  chat: ['chat', 'receptionist', 'live chat', 'inbox', 'messag'],
  reviews: ['review', 'reputation', 'testimonial', 'rating'],
  newsletter: ['newsletter', 'nurtur', 'sequence', 'follow-up', 'drip'],
  'website-speed': ['speed', 'performance', 'page speed', 'web design', 'website'],
  seo: ['seo', 'search', 'google', 'ranking', 'local listing'],
  'website-care': ['website', 'web design', 'maintenance', 'care plan', 'web support'],
};

/** A name's words count three times a short text's; an offer needs this much to be named at all. */
const NAME_WEIGHT = 3;
const MIN_SCORE = 2;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PATTERNS = Object.fromEntries(
  FIX_TOPICS.map((topic) => [topic, TOPIC_WORDS[topic].map((word) => new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(word)}`, 'iu'))]),
) as Record<FixTopic, RegExp[]>;

function scoreOf(offer: Offer, topic: FixTopic): number {
  let score = 0;
  for (const pattern of PATTERNS[topic]) {
    if (pattern.test(offer.name)) score += NAME_WEIGHT;
    if (pattern.test(offer.shortText)) score += 1;
  }
  return score;
}

/**
 * The best offer for each topic: services first (what fixes it), then packages; on a tie the one listed
 * first (the admin's own order). `offers` come in that order.
 */
export function matchOffers(offers: readonly Offer[]): Partial<Record<FixTopic, Offer>> {
  const matched: Partial<Record<FixTopic, Offer>> = {};
  for (const topic of FIX_TOPICS) {
    let best: { offer: Offer; score: number } | undefined;
    for (const offer of offers) {
      const score = scoreOf(offer, topic);
      if (score >= MIN_SCORE && (!best || score > best.score)) best = { offer, score };
    }
    if (best) matched[topic] = best.offer;
  }
  return matched;
}

export const offerHref = (offer: Pick<Offer, 'kind' | 'id'>) => `/${offer.kind}/${encodeURIComponent(offer.id)}`;
