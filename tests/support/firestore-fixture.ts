/**
 * A realistic Firebase project as firebase-admin hands it over: the demo content (src/server/seed) as
 * Firestore documents with Timestamps, a DocumentReference and nested maps, three members with page views.
 * The classes imitate firebase-admin's by shape only (the importer is duck-typed and never imports it).
 */
import { DEMO_ARTICLES } from '../../src/server/seed/demo-articles';
import { DEMO_BUILDS, DEMO_PACKAGES, DEMO_SERVICES } from '../../src/server/seed/demo-catalog';
import type { FirestoreDoc, FirestoreSource } from '../../src/server/modules/firebase-import';

export class FakeTimestamp {
  constructor(
    readonly seconds: number,
    readonly nanoseconds: number,
  ) {}
  toDate() {
    return new Date(this.seconds * 1000 + this.nanoseconds / 1e6);
  }
  toJSON() {
    return { _seconds: this.seconds, _nanoseconds: this.nanoseconds };
  }
}

export class FakeGeoPoint {
  constructor(
    readonly latitude: number,
    readonly longitude: number,
  ) {}
  isEqual(other: FakeGeoPoint) {
    return other.latitude === this.latitude && other.longitude === this.longitude;
  }
}

export class FakeDocumentReference {
  readonly firestore = {};
  constructor(
    readonly id: string,
    readonly parentPath: string,
  ) {}
  get path() {
    return `${this.parentPath}/${this.id}`;
  }
}

/** The clock of the import. */
export const NOW = Date.parse('2026-01-15T12:00:00.000Z');
const DAY = 86_400_000;

/** A Timestamp `days` before NOW, with sub-millisecond nanoseconds as Firestore stores them. */
export const ts = (days: number) => {
  const ms = NOW - days * DAY;
  return new FakeTimestamp(Math.floor(ms / 1000), (ms % 1000) * 1e6 + 123);
};
export const iso = (days: number) => new Date(NOW - days * DAY).toISOString();

const storageUrl = (folder: string, id: string) =>
  `https://firebasestorage.googleapis.com/v0/b/agency-demo.appspot.com/o/${folder}%2F${id}.jpg?alt=media`;

/** Firestore's auto ids for articles: the slug is a field, as the seed's Article has both. */
export const ARTICLE_DOC_IDS = ['Zq1vT8mN2kLp0sWx4yRa', 'Hd7cF3jK9bQe2uYt6iOp', 'Lm5nB8vC1xZa3sDf7gHj', 'Pq2wE4rT6yU8iO0pAs1d', 'Fg3hJ5kL7zX9cV1bN2mQ', 'Wr4tY6uI8oP0aS2dF4gH'];

/** A fresh copy on every call: tests change it, and the seed's own lists must never be touched. */
export function goodSource(): FirestoreSource {
  const services: FirestoreDoc[] = DEMO_SERVICES.map((s, i) => ({
    id: s.id,
    // Seed fields only (no description: that is this site's addition); this app also stored the id.
    data: { id: s.id, name: s.name, picture: storageUrl('services', s.id), price: s.price, shortText: s.shortText, benefits: [...s.benefits], order: i, createdAt: ts(120 - i) },
  }));
  const demos: FirestoreDoc[] = DEMO_BUILDS.map((d, i) => ({
    id: d.id,
    data: { name: d.name, profilePicture: storageUrl('demos', d.id), shortText: d.shortText, suitableFor: [...d.suitableFor], order: i, createdAt: ts(90), updatedAt: ts(15 - i) },
  }));
  const packages: FirestoreDoc[] = DEMO_PACKAGES.map((p, i) => ({
    id: p.id,
    data: {
      name: p.name,
      description: p.description,
      picture: '',
      shortText: p.shortText,
      priceSetup: p.priceSetup,
      priceMonthly: p.priceMonthly,
      // One package stored references instead of ids; the order is what the site shows.
      includedServiceIds: i === 2 ? p.includedServiceIds.map((id) => new FakeDocumentReference(id, 'services')) : [...p.includedServiceIds],
      // A list of nested maps.
      features: structuredClone(p.features),
      isActive: p.isActive,
      order: i,
      createdAt: ts(110),
      updatedAt: ts(20 - i),
    },
  }));
  const articles: FirestoreDoc[] = DEMO_ARTICLES.map((a, i) => ({
    id: ARTICLE_DOC_IDS[i]!,
    data: {
      slug: a.id,
      title: a.title,
      excerpt: a.excerpt,
      content: a.content,
      featuredImage: storageUrl('articles', a.id),
      featuredImageAlt: a.featuredImageAlt,
      authorName: a.author.name,
      authorImage: '',
      tags: [...a.tags],
      published: a.published,
      createdAt: ts(a.daysAgo),
    },
  }));
  const faqs: FirestoreDoc[] = [
    { id: 'setup-time', data: { question: 'How long does setup take?', answer: '<p>Most systems go live in <strong>10 to 14 days</strong>.</p>', order: 0, createdAt: ts(100) } },
    { id: 'contracts', data: { question: 'Is there a minimum contract?', answer: '<p>No. Plans run month to month.</p>', order: 1, createdAt: ts(100) } },
  ];
  const config: FirestoreDoc = {
    id: 'landingPage',
    data: { blockOrder: ['hero', 'services', 'packages', 'what-we-build', 'demos', 'articles', 'testimonials', 'faqs', 'free-audit-cta', 'cta'] },
  };
  const users: FirestoreDoc[] = [
    { id: 'kR2mX9pQ4tV7wY1zA3bC5dE6fG8h', data: { uid: 'kR2mX9pQ4tV7wY1zA3bC5dE6fG8h', email: 'Owner@Autoflow.Agency', firstName: 'Elena', lastName: 'Marsh', role: 'admin', createdAt: ts(200) } },
    {
      id: 'uA1bC2dE3fG4hI5jK6lM7nO8pQ9r',
      data: { uid: 'uA1bC2dE3fG4hI5jK6lM7nO8pQ9r', email: 'sam@clinic.example', firstName: ' Sam ', lastName: "O'Neil", role: 'user', phone: ' +44 20 7946 0958 ', website: 'clinic.example', signupSource: '/packages', createdAt: ts(30) },
    },
    // An early profile: no role (the seed's default), blank optional fields, no names.
    { id: 'zZ9yY8xX7wW6vV5uU4tT3sS2rR1q', data: { email: 'quiet@example.org', phone: '  ', website: '', signupSource: 'https://elsewhere.example/' } },
  ];
  const pageViews: Record<string, FirestoreDoc[]> = {
    uA1bC2dE3fG4hI5jK6lM7nO8pQ9r: [
      { id: 'pv1', data: { pagePath: '/packages', duration: 45_000, timestamp: ts(29), sessionId: 'session_1a2b3c4d' } },
      // Milliseconds since 1970, as the tracker's Date.now() stored them.
      { id: 'pv2', data: { pagePath: '/package/clinic-growth-system', duration: 120_500, timestamp: NOW - 29 * DAY + 60_000, sessionId: 'session_1a2b3c4d' } },
      // A tab left open for two days: capped at a day, as the live API does.
      { id: 'pv3', data: { pagePath: '/dashboard', duration: 2 * DAY, timestamp: ts(10), sessionId: 'session_9z8y7x6w' } },
    ],
    kR2mX9pQ4tV7wY1zA3bC5dE6fG8h: [],
  };
  return { services, demos, packages, articles, faqs, config, users, pageViews };
}
