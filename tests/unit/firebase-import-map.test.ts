/**
 * Firestore documents → the site's import: the demo content as a Firebase project maps record by record,
 * passes the content import's validation, and a project with bad documents yields every problem by
 * collection, document id and field, and nothing else.
 */
import { describe, expect, it } from 'vitest';
import { firestoreToBundle, formatImportProblem, pageTimeId, type FirestoreSource } from '../../src/server/modules/firebase-import';
import { validateContentBundle } from '../../src/server/modules/content-transfer/validate';
import { DEMO_ARTICLES } from '../../src/server/seed/demo-articles';
import { DEMO_BUILDS, DEMO_PACKAGES, DEMO_SERVICES } from '../../src/server/seed/demo-catalog';
import { ARTICLE_DOC_IDS, FakeGeoPoint, goodSource, iso, NOW, ts } from '../support/firestore-fixture';

const nothingStored = { serviceIds: new Set<string>(), mediaIds: new Set<string>(), articleSlugs: new Map<string, string>() };
const storageUrl = (folder: string, id: string) => `https://firebasestorage.googleapis.com/v0/b/agency-demo.appspot.com/o/${folder}%2F${id}.jpg?alt=media`;
const DAY = 86_400_000;

async function mapGood() {
  const result = await firestoreToBundle(goodSource(), { now: NOW });
  if (!result.ok) throw new Error(result.problems.map(formatImportProblem).join('\n'));
  return result;
}

describe('firestoreToBundle: the demo content as a Firebase project', () => {
  it('maps every content record: document ids kept, timestamps converted, package services in order', async () => {
    const { bundle, problems } = await mapGood();
    expect(problems).toEqual([]);
    expect(bundle.format).toBe('agency-site-content');
    expect(bundle.version).toBe(1);
    expect(bundle.services).toEqual(
      DEMO_SERVICES.map((s, i) => ({ id: s.id, name: s.name, picture: storageUrl('services', s.id), price: s.price, shortText: s.shortText, benefits: s.benefits, order: i, createdAt: iso(120 - i) })),
    );
    expect(bundle.demos).toEqual(
      DEMO_BUILDS.map((d, i) => ({ id: d.id, name: d.name, profilePicture: storageUrl('demos', d.id), shortText: d.shortText, suitableFor: d.suitableFor, order: i, createdAt: iso(90), updatedAt: iso(15 - i) })),
    );
    expect(bundle.packages).toEqual(
      DEMO_PACKAGES.map((p, i) => ({
        id: p.id,
        name: p.name,
        description: p.description,
        picture: '',
        shortText: p.shortText,
        priceSetup: p.priceSetup,
        priceMonthly: p.priceMonthly,
        // Package 2 stored DocumentReferences: the same ids, in the same order.
        includedServiceIds: p.includedServiceIds,
        features: p.features,
        isActive: p.isActive,
        order: i,
        createdAt: iso(110),
        updatedAt: iso(20 - i),
      })),
    );
    expect(bundle.articles).toEqual(
      DEMO_ARTICLES.map((a, i) => ({
        id: ARTICLE_DOC_IDS[i],
        slug: a.id,
        title: a.title,
        excerpt: a.excerpt,
        content: a.content,
        featuredImage: storageUrl('articles', a.id),
        featuredImageAlt: a.featuredImageAlt,
        authorName: a.author.name,
        authorImage: '',
        tags: a.tags,
        published: a.published,
        createdAt: iso(a.daysAgo),
      })),
    );
    expect(bundle.faqs).toEqual([
      { id: 'setup-time', question: 'How long does setup take?', answer: '<p>Most systems go live in <strong>10 to 14 days</strong>.</p>', order: 0, createdAt: iso(100) },
      { id: 'contracts', question: 'Is there a minimum contract?', answer: '<p>No. Plans run month to month.</p>', order: 1, createdAt: iso(100) },
    ]);
    expect(bundle.landingPageConfig).toEqual({
      blockOrder: ['hero', 'services', 'packages', 'what-we-build', 'demos', 'articles', 'testimonials', 'faqs', 'free-audit-cta', 'cta'],
    });
  });

  it('the bundle is plain JSON that the content import accepts as it is', async () => {
    const { bundle } = await mapGood();
    expect(JSON.parse(JSON.stringify(bundle))).toEqual(bundle);
    const validation = await validateContentBundle(bundle, nothingStored);
    expect(validation.ok).toBe(true);
  });

  it('maps member profiles with the site’s own field rules', async () => {
    const { users } = await mapGood();
    expect(users).toEqual([
      { id: 'kR2mX9pQ4tV7wY1zA3bC5dE6fG8h', email: 'owner@autoflow.agency', firstName: 'Elena', lastName: 'Marsh', role: 'admin', createdAt: new Date(iso(200)) },
      {
        id: 'uA1bC2dE3fG4hI5jK6lM7nO8pQ9r',
        email: 'sam@clinic.example',
        firstName: 'Sam',
        lastName: "O'Neil",
        role: 'user',
        phone: '+44 20 7946 0958',
        website: 'https://clinic.example',
        signupSource: '/packages',
        createdAt: new Date(iso(30)),
      },
      // No role: "user"; blank phone and website not stored; a signupSource off the site dropped; no names: ''.
      { id: 'zZ9yY8xX7wW6vV5uU4tT3sS2rR1q', email: 'quiet@example.org', firstName: '', lastName: '', role: 'user' },
    ]);
  });

  it('maps page views to page_times rows with ids that are the same on every run', async () => {
    const { pageTimes } = await mapGood();
    const uid = 'uA1bC2dE3fG4hI5jK6lM7nO8pQ9r';
    expect(pageTimes).toEqual([
      { id: pageTimeId(uid, 'pv1'), userId: uid, pagePath: '/packages', durationMs: 45_000, at: new Date(iso(29)), sessionId: 'session_1a2b3c4d' },
      { id: pageTimeId(uid, 'pv2'), userId: uid, pagePath: '/package/clinic-growth-system', durationMs: 120_500, at: new Date(NOW - 29 * DAY + 60_000), sessionId: 'session_1a2b3c4d' },
      // Two days claimed: the live API's cap of one day.
      { id: pageTimeId(uid, 'pv3'), userId: uid, pagePath: '/dashboard', durationMs: DAY, at: new Date(iso(10)), sessionId: 'session_9z8y7x6w' },
    ]);
    expect(pageTimeId(uid, 'pv1')).toMatch(/^fbpv-[0-9a-f]{32}$/);
    expect((await mapGood()).pageTimes.map((p) => p.id)).toEqual(pageTimes.map((p) => p.id));
    expect(pageTimeId('other-user', 'pv1')).not.toBe(pageTimeId(uid, 'pv1'));
  });

  it('a package may name a service already in the database', async () => {
    const source = goodSource();
    source.packages[0]!.data = { ...(source.packages[0]!.data as object), includedServiceIds: ['stored-service'] };
    expect((await firestoreToBundle(source, { now: NOW })).ok).toBe(false);
    const result = await firestoreToBundle(source, { now: NOW, existing: { ...nothingStored, serviceIds: new Set(['stored-service']) } });
    expect(result.ok).toBe(true);
  });
});

/** The good project with one of each kind of bad document. */
function badSource(): FirestoreSource {
  const source = goodSource();
  const data = (list: { data: unknown }[], i: number) => list[i]!.data as Record<string, unknown>;
  // A forbidden top-level field name.
  data(source.services, 1)['price/usd'] = 390;
  // A forbidden key nested in a map inside a list, and a stored id that is not the document's.
  data(source.packages, 3).features = [{ title: 'Funnel build', description: 'Two pages.', __meta__: { by: 'admin' } }];
  data(source.packages, 3).id = 'coach-pipeline-v2';
  // A reference to a service that is not there.
  (data(source.packages, 0).includedServiceIds as unknown[]).push('ghost-service');
  // A nested map the format does not know, with a forbidden key inside; a Timestamp in the wrong place.
  data(source.articles, 1).seo = { ogTitle: 'Reminders', 'og*image': 'x', checkedAt: ts(1) };
  // The slug of another article.
  data(source.articles, 3).slug = DEMO_ARTICLES[0]!.id;
  data(source.demos, 0).name = '   ';
  data(source.faqs, 1).createdAt = 'last tuesday';
  source.config = { id: 'landingPage', data: { blockOrder: 'hero,services', updatedAt: ts(3) } };
  source.users.push(
    { id: 'bad-role-user', data: { email: 'editor@example.com', firstName: 'Ed', lastName: 'Itor', role: 'editor', createdAt: ts(5) } },
    { id: 'dup-email-user', data: { email: 'SAM@clinic.example', firstName: 'Sam', lastName: 'Two', role: 'user', location: new FakeGeoPoint(95, 10) } },
    { id: 'mismatched', data: { uid: 'someone-else', email: 'mm@example.com', firstName: 'Max', lastName: 'Mustermann', website: 'javascript:alert(1)' } },
  );
  source.pageViews.uA1bC2dE3fG4hI5jK6lM7nO8pQ9r!.push(
    { id: 'short', data: { pagePath: '/services', duration: 800, timestamp: ts(2), sessionId: 'session_1a2b3c4d' } },
    { id: 'offsite', data: { pagePath: 'https://evil.example/', duration: 5000, timestamp: ts(2), sessionId: 'session_1a2b3c4d' } },
    { id: 'future', data: { pagePath: '/faq', duration: 5000, timestamp: NOW + 10 * 60_000, sessionId: 'tab' } },
  );
  source.pageViews['deleted-user'] = [{ id: 'pv1', data: { pagePath: '/', duration: 5000, timestamp: ts(40), sessionId: 'session_1a2b3c4d' } }];
  return source;
}

describe('firestoreToBundle: a project with bad documents', () => {
  it('reports every problem by collection, document id and field, and returns nothing to import', async () => {
    const result = await firestoreToBundle(badSource(), { now: NOW });
    expect(result.ok).toBe(false);
    expect(result).not.toHaveProperty('bundle');
    expect(result.problems).toEqual([
      { collection: 'services', id: 'lead-nurturing-sequences', field: '["price/usd"]', message: 'field names must not contain ~ * / [ or ]' },
      { collection: 'demos', id: DEMO_BUILDS[0]!.id, field: 'name', message: 'must not be empty' },
      { collection: 'packages', id: 'no-show-rescue', field: 'includedServiceIds[1]', message: 'no service "ghost-service" in this file or in the database' },
      { collection: 'packages', id: 'coach-pipeline', field: 'features[0].__meta__', message: 'field names must not both begin and end with "__"' },
      { collection: 'packages', id: 'coach-pipeline', field: 'id', message: 'must be the document id "coach-pipeline" (or absent)' },
      { collection: 'articles', id: ARTICLE_DOC_IDS[1], field: 'seo["og*image"]', message: 'field names must not contain ~ * / [ or ]' },
      { collection: 'articles', id: ARTICLE_DOC_IDS[1], field: 'seo', message: 'unknown field' },
      { collection: 'articles', id: ARTICLE_DOC_IDS[3], field: 'slug', message: `slug "${DEMO_ARTICLES[0]!.id}" is also used by articles/${ARTICLE_DOC_IDS[0]}` },
      { collection: 'faqs', id: 'contracts', field: 'createdAt', message: 'must be an ISO 8601 date-time such as "2025-03-14T09:30:00.000Z" (or a Firestore timestamp object)' },
      { collection: 'config', id: 'landingPage', field: 'blockOrder', message: 'must be a list' },
      { collection: 'config', id: 'landingPage', field: 'updatedAt', message: 'unknown field' },
      { collection: 'users', id: 'bad-role-user', field: 'role', message: 'must be "user" or "admin"' },
      { collection: 'users', id: 'dup-email-user', field: 'location.latitude', message: 'must be between -90 and 90' },
      { collection: 'users', id: 'dup-email-user', field: 'location', message: 'unknown field' },
      { collection: 'users', id: 'mismatched', field: 'uid', message: 'must be the document id "mismatched"' },
      { collection: 'users', id: 'mismatched', field: 'website', message: 'Please enter a valid website address' },
      { collection: 'users/uA1bC2dE3fG4hI5jK6lM7nO8pQ9r/pageViews', id: 'short', field: 'duration', message: 'duration must be more than 1000 ms' },
      { collection: 'users/uA1bC2dE3fG4hI5jK6lM7nO8pQ9r/pageViews', id: 'offsite', field: 'pagePath', message: 'pagePath must be a path on this site (a leading /, no spaces or markup)' },
      { collection: 'users/uA1bC2dE3fG4hI5jK6lM7nO8pQ9r/pageViews', id: 'future', field: 'sessionId', message: 'sessionId must be 8 to 64 letters, digits, - or _' },
      { collection: 'users/uA1bC2dE3fG4hI5jK6lM7nO8pQ9r/pageViews', id: 'future', field: 'timestamp', message: 'timestamp must not be in the future' },
      { collection: 'users/deleted-user/pageViews', id: '', field: '', message: 'there is no users/deleted-user document for this page view' },
    ]);
  });

  it('reads as one line per problem for the CLI', async () => {
    const result = await firestoreToBundle(badSource(), { now: NOW });
    expect(result.problems.slice(0, 2).map(formatImportProblem)).toEqual([
      'services/lead-nurturing-sequences.["price/usd"]: field names must not contain ~ * / [ or ]',
      `demos/${DEMO_BUILDS[0]!.id}.name: must not be empty`,
    ]);
  });

  it('a repeated email (any case), a missing email and a name the site refuses are problems too', async () => {
    const source = goodSource();
    source.users.push(
      { id: 'dup', data: { email: 'SAM@clinic.example' } },
      { id: 'no-email', data: { firstName: 'Nora' } },
      { id: 'link-name', data: { email: 'l@example.com', firstName: 'Click evil.example/x' } },
    );
    const result = await firestoreToBundle(source, { now: NOW });
    expect(result.problems).toEqual([
      { collection: 'users', id: 'dup', field: 'email', message: '"sam@clinic.example" is also the email of users/uA1bC2dE3fG4hI5jK6lM7nO8pQ9r' },
      { collection: 'users', id: 'no-email', field: 'email', message: 'Email is required' },
      { collection: 'users', id: 'link-name', field: 'firstName', message: 'First name can only contain letters, spaces, apostrophes, hyphens and dots' },
    ]);
  });
});
