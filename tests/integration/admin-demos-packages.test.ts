/**
 * Demos and packages through the admin content engine: readable ids, the shared schema's field errors,
 * included services kept in order (and refused when they do not exist), versions, duplicates, deletes,
 * reorders, reverts that put included services and features back, and renamed URLs that keep answering.
 */
import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, demos, packageServices, packages } from '../../src/server/db/schema';
import { getActivePackage } from '../../src/server/modules/catalog/repository';
import {
  createRecord,
  deleteRecord,
  duplicateRecord,
  getForEditor,
  listForAdmin,
  reorderRecords,
  revertChange,
  updateRecord,
} from '../../src/server/modules/content/service';
import { movedTo } from '../../src/server/modules/redirects/service';
import { createAuthHarness, type AuthHarness } from '../support/auth';

let h: AuthHarness;
let admin: string;
let member: string;
beforeEach(async () => {
  h = await createAuthHarness();
  admin = (await h.signUpVerified({ email: 'owner@example.com' })).userId;
  member = (await h.signUpVerified({ email: 'member@example.com' })).userId;
});
afterEach(() => h.close());

const query = { q: '', filter: '', sort: 'order', dir: 'asc' as const, page: 1, perPage: 50 };
const activities = () => h.handle.db.select().from(activityLog).orderBy(activityLog.at);
const lastActivity = async (action: string, entityId?: string) =>
  (await activities()).filter((e) => e.action === action && (entityId === undefined || e.entityId === entityId)).at(-1)!;
const links = (packageId: string) =>
  h.handle.db
    .select({ serviceId: packageServices.serviceId, position: packageServices.position })
    .from(packageServices)
    .where(eq(packageServices.packageId, packageId))
    .orderBy(asc(packageServices.position));

const demo = (name: string, extra: Record<string, unknown> = {}) => ({ name, shortText: `${name} in short`, suitableFor: ['Clinics', 'Coaches'], ...extra });
const pkg = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  shortText: `${name} in short`,
  priceSetup: 1500,
  priceMonthly: 199,
  includedServiceIds: ['outreach', 'reminders', 'funnels'],
  features: [
    { title: 'Setup in a week', description: 'We build and connect it.' },
    { title: 'Monthly tuning', description: '' },
  ],
  isActive: true,
  ...extra,
});

async function addServices(...names: string[]) {
  for (const name of names) await createRecord(admin, 'service', { name, price: 100 });
}

describe('demos', () => {
  it('creates with readable unique ids at the end of the list; a member is refused', async () => {
    const a = await createRecord(admin, 'demo', demo('Dental Bot'));
    const b = await createRecord(admin, 'demo', demo('Dental bot!'));
    expect([a.id, b.id]).toEqual(['dental-bot', 'dental-bot-2']);
    expect(a.tags).toEqual(['demos']);
    expect(b.snapshot).toMatchObject({ order: 1, suitableFor: ['Clinics', 'Coaches'] });
    await expect(createRecord(member, 'demo', demo('Sneaky'))).rejects.toMatchObject({ code: 'NOT_ADMIN' });
    expect((await h.handle.db.select().from(demos)).map((d) => d.id).sort()).toEqual(['dental-bot', 'dental-bot-2']);
  });

  it('says which field is wrong; nothing is saved', async () => {
    await expect(
      createRecord(admin, 'demo', { name: 'x'.repeat(100_000), suitableFor: ['Clinics', ' '], profilePicture: 'javascript:alert(1)' }),
    ).rejects.toMatchObject({
      code: 'INVALID',
      fieldErrors: {
        name: 'Must be at most 200 characters',
        'suitableFor.1': 'Must not be empty',
        profilePicture: 'must be empty, a /media/{id}.webp path or an http(s) URL',
      },
    });
    await expect(createRecord(admin, 'demo', { name: '   ' })).rejects.toMatchObject({ fieldErrors: { name: 'Must not be empty' } });
    expect(await h.handle.db.select().from(demos)).toEqual([]);
  });

  it('sanitizes the description', async () => {
    const { id } = await createRecord(admin, 'demo', demo('Safe', { description: '<p>Hi<img src=x onerror="alert(1)"><script>alert(1)</script></p>' }));
    expect((await getForEditor('demo', id))?.description).toBe('<p>Hi<img></p>');
  });

  it('updates with the version it opened; a later save from an older version is refused, nothing lost', async () => {
    const { id, snapshot } = await createRecord(admin, 'demo', demo('Physio'));
    const saved = await updateRecord(admin, 'demo', id, { version: snapshot!.updatedAt, fields: demo('Physio', { suitableFor: ['Physios'] }) });
    expect(saved.tags).toEqual(['demos']);
    await expect(updateRecord(admin, 'demo', id, { version: snapshot!.updatedAt, fields: demo('Physio', { suitableFor: ['Dentists'] }) })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('owner@example.com saved this demo'),
    });
    expect((await getForEditor('demo', id))?.suitableFor).toEqual(['Physios']);
  });

  it('duplicates right after the original, deletes, reorders, and reverts each change', async () => {
    for (const n of ['One', 'Two', 'Three']) await createRecord(admin, 'demo', demo(n));
    const copy = await duplicateRecord(admin, 'demo', 'one');
    expect(copy.snapshot).toMatchObject({ id: 'one-copy', name: 'One (copy)', suitableFor: ['Clinics', 'Coaches'] });
    expect((await listForAdmin('demo', query)).rows.map((r) => r.id)).toEqual(['one', 'one-copy', 'two', 'three']);

    await reorderRecords(admin, 'demo', ['three', 'two', 'one-copy', 'one']);
    expect((await listForAdmin('demo', query)).rows.map((r) => r.id)).toEqual(['three', 'two', 'one-copy', 'one']);
    await revertChange(admin, (await lastActivity('reorder')).id);
    expect((await listForAdmin('demo', query)).rows.map((r) => r.id)).toEqual(['one', 'one-copy', 'two', 'three']);

    await deleteRecord(admin, 'demo', 'two');
    expect((await listForAdmin('demo', query)).rows.map((r) => [r.id, r.order])).toEqual([['one', 0], ['one-copy', 1], ['three', 2]]);
    await revertChange(admin, (await lastActivity('delete')).id);
    expect(await getForEditor('demo', 'two')).toMatchObject({ name: 'Two', order: 2, suitableFor: ['Clinics', 'Coaches'] });

    const two = (await getForEditor('demo', 'two'))!;
    await updateRecord(admin, 'demo', 'two', { version: two.updatedAt, fields: demo('Two', { suitableFor: ['Spas'], shortText: 'New' }) });
    await revertChange(admin, (await lastActivity('update')).id);
    expect(await getForEditor('demo', 'two')).toMatchObject({ shortText: 'Two in short', suitableFor: ['Clinics', 'Coaches'] });

    await revertChange(admin, (await lastActivity('create', 'one-copy')).id);
    expect(await getForEditor('demo', 'one-copy')).toBeUndefined();
  });

  it('renaming the URL name keeps the old URL answering with a 301 to the new one', async () => {
    const { id, snapshot } = await createRecord(admin, 'demo', demo('Spa Reviews'));
    const renamed = await updateRecord(admin, 'demo', id, { version: snapshot!.updatedAt, newId: 'med-spa-reviews', fields: demo('Spa Reviews') });
    expect(renamed.id).toBe('med-spa-reviews');
    expect(await movedTo('/demo/spa-reviews')).toBe('/demo/med-spa-reviews');
    expect(await getForEditor('demo', 'spa-reviews')).toBeUndefined();
  });
});

describe('packages', () => {
  beforeEach(() => addServices('Outreach', 'Reminders', 'Funnels', 'Chat'));

  it('creates with a readable id and keeps the included services in the order chosen', async () => {
    const created = await createRecord(admin, 'package', pkg('Clinic Growth', { includedServiceIds: ['funnels', 'outreach', 'chat'] }));
    expect(created.id).toBe('clinic-growth');
    expect(created.tags).toEqual(['packages']);
    expect(created.snapshot).toMatchObject({ includedServiceIds: ['funnels', 'outreach', 'chat'], features: pkg('x').features, priceSetup: 1500, isActive: true });
    expect(await links('clinic-growth')).toEqual([
      { serviceId: 'funnels', position: 0 },
      { serviceId: 'outreach', position: 1 },
      { serviceId: 'chat', position: 2 },
    ]);
    expect((await getActivePackage('clinic-growth'))?.includedServiceIds).toEqual(['funnels', 'outreach', 'chat']);
    expect((await createRecord(admin, 'package', pkg('Clinic growth'))).id).toBe('clinic-growth-2');
  });

  it('says which field is wrong and why: prices, names, features, included services; nothing is saved', async () => {
    await expect(createRecord(admin, 'package', pkg('x'.repeat(100_000), { priceSetup: -1, priceMonthly: 'a lot', features: [{ title: '', description: '' }] }))).rejects.toMatchObject({
      code: 'INVALID',
      fieldErrors: {
        name: 'Must be at most 200 characters',
        priceSetup: 'Must be at least 0',
        priceMonthly: 'Must be a number',
        'features.0.title': 'Must not be empty',
      },
    });
    await expect(createRecord(admin, 'package', pkg('Ghost', { includedServiceIds: ['outreach', 'no-such-service'] }))).rejects.toMatchObject({
      code: 'INVALID',
      fieldErrors: { includedServiceIds: expect.stringContaining('There is no service “no-such-service”') },
    });
    await expect(createRecord(admin, 'package', pkg('Twice', { includedServiceIds: ['chat', 'chat'] }))).rejects.toMatchObject({
      code: 'INVALID',
      fieldErrors: { includedServiceIds: 'The service “chat” is included twice: remove one.' },
    });
    await expect(createRecord(admin, 'package', pkg('Bad id', { includedServiceIds: ['has space'] }))).rejects.toMatchObject({
      fieldErrors: { 'includedServiceIds.0': expect.stringContaining('only letters, digits') },
    });
    expect(await h.handle.db.select().from(packages)).toEqual([]);
    expect(await h.handle.db.select().from(packageServices)).toEqual([]);
  });

  it('refuses an update naming a service that does not exist, and keeps what was stored', async () => {
    const { id, snapshot } = await createRecord(admin, 'package', pkg('Kept'));
    await expect(updateRecord(admin, 'package', id, { version: snapshot!.updatedAt, fields: pkg('Kept', { includedServiceIds: ['chat', 'gone'] }) })).rejects.toMatchObject({
      code: 'INVALID',
      fieldErrors: { includedServiceIds: expect.stringContaining('“gone”') },
    });
    expect((await getForEditor('package', id))?.includedServiceIds).toEqual(['outreach', 'reminders', 'funnels']);
  });

  it('updates the services, features and prices with the version it opened; an older version is refused', async () => {
    const { id, snapshot } = await createRecord(admin, 'package', pkg('Pipeline'));
    const next = pkg('Pipeline', { includedServiceIds: ['chat', 'funnels'], features: [{ title: 'Only one', description: 'd' }], priceSetup: 900.555, priceMonthly: null });
    const saved = await updateRecord(admin, 'package', id, { version: snapshot!.updatedAt, fields: next });
    expect(saved.snapshot).toMatchObject({ includedServiceIds: ['chat', 'funnels'], features: [{ title: 'Only one', description: 'd' }], priceSetup: 900.56, priceMonthly: null });
    const entry = await lastActivity('update');
    expect(entry.summary).toBe('Updated package “Pipeline”: setup price, monthly price, included services, features');
    await expect(updateRecord(admin, 'package', id, { version: snapshot!.updatedAt, fields: pkg('Pipeline') })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await links(id)).toEqual([
      { serviceId: 'chat', position: 0 },
      { serviceId: 'funnels', position: 1 },
    ]);
  });

  it('duplicates as an inactive copy with the same services and features, right after the original', async () => {
    await createRecord(admin, 'package', pkg('First'));
    await createRecord(admin, 'package', pkg('Second', { includedServiceIds: ['reminders', 'outreach'] }));
    const copy = await duplicateRecord(admin, 'package', 'first');
    expect(copy.snapshot).toMatchObject({ id: 'first-copy', name: 'First (copy)', isActive: false, includedServiceIds: ['outreach', 'reminders', 'funnels'], features: pkg('x').features });
    expect((await listForAdmin('package', query)).rows.map((r) => r.id)).toEqual(['first', 'first-copy', 'second']);
    // The copy is not public until an admin makes it active.
    expect(await getActivePackage('first-copy')).toBeUndefined();
  });

  it('deletes (with its links) and reorders; the list filters by status and shows Inactive and BEST VALUE', async () => {
    await createRecord(admin, 'package', pkg('Big'));
    await createRecord(admin, 'package', pkg('Small', { includedServiceIds: ['chat'], priceSetup: 5000 }));
    await createRecord(admin, 'package', pkg('Hidden', { isActive: false }));
    await createRecord(admin, 'package', pkg('Cheap', { priceSetup: 999.99 }));
    const rows = (await listForAdmin('package', query)).rows;
    expect(rows.map((r) => [r.id, r.badges.map((b) => b.label), r.publicPath])).toEqual([
      ['big', ['BEST VALUE'], '/package/big'],
      ['small', [], '/package/small'],
      ['hidden', ['Inactive', 'BEST VALUE'], '/package/hidden?preview'],
      ['cheap', [], '/package/cheap'],
    ]);
    expect((await listForAdmin('package', { ...query, filter: 'inactive' })).rows.map((r) => r.id)).toEqual(['hidden']);
    expect((await listForAdmin('package', { ...query, filter: 'active' })).rows.map((r) => r.id)).toEqual(['big', 'small', 'cheap']);

    await reorderRecords(admin, 'package', ['cheap', 'hidden', 'small', 'big']);
    expect((await listForAdmin('package', query)).rows.map((r) => r.id)).toEqual(['cheap', 'hidden', 'small', 'big']);
    await deleteRecord(admin, 'package', 'hidden');
    expect((await listForAdmin('package', query)).rows.map((r) => [r.id, r.order])).toEqual([['cheap', 0], ['small', 1], ['big', 2]]);
    expect(await links('hidden')).toEqual([]);
  });

  it('reverts an update, a delete and a create, putting back the included services (in order) and the features', async () => {
    const { id, snapshot } = await createRecord(admin, 'package', pkg('Front Desk', { includedServiceIds: ['reminders', 'chat', 'outreach'] }));
    await updateRecord(admin, 'package', id, { version: snapshot!.updatedAt, fields: pkg('Front Desk', { includedServiceIds: ['funnels'], features: [] }) });
    await revertChange(admin, (await lastActivity('update')).id);
    expect(await getForEditor('package', id)).toMatchObject({ includedServiceIds: ['reminders', 'chat', 'outreach'], features: pkg('x').features });

    await deleteRecord(admin, 'package', id);
    expect(await links(id)).toEqual([]);
    await revertChange(admin, (await lastActivity('delete')).id);
    expect(await getForEditor('package', id)).toMatchObject({ name: 'Front Desk', includedServiceIds: ['reminders', 'chat', 'outreach'], features: pkg('x').features, isActive: true });
    expect((await getActivePackage(id))?.includedServiceIds).toEqual(['reminders', 'chat', 'outreach']);

    // The record changed after it was created: undoing the create now would lose those changes.
    await expect(revertChange(admin, (await lastActivity('create', id)).id)).rejects.toMatchObject({ code: 'CONFLICT' });
    const copy = await duplicateRecord(admin, 'package', id);
    await revertChange(admin, (await lastActivity('create', copy.id)).id);
    expect(await getForEditor('package', copy.id)).toBeUndefined();
    expect(await links(copy.id)).toEqual([]);
  });

  it('renaming the package keeps its services and its old URL answering with a 301', async () => {
    const { id, snapshot } = await createRecord(admin, 'package', pkg('Coach Pipeline'));
    const renamed = await updateRecord(admin, 'package', id, { version: snapshot!.updatedAt, newId: 'coach-growth', fields: pkg('Coach Pipeline') });
    expect(renamed.snapshot).toMatchObject({ id: 'coach-growth', includedServiceIds: ['outreach', 'reminders', 'funnels'] });
    expect(await movedTo('/package/coach-pipeline')).toBe('/package/coach-growth');
    expect(await links('coach-pipeline')).toEqual([]);
  });

  it('a deleted service leaves every package; a renamed service id follows into them', async () => {
    await createRecord(admin, 'package', pkg('A', { includedServiceIds: ['funnels', 'reminders', 'chat'] }));
    await createRecord(admin, 'package', pkg('B', { includedServiceIds: ['reminders'] }));
    await deleteRecord(admin, 'service', 'reminders');
    expect((await getForEditor('package', 'a'))?.includedServiceIds).toEqual(['funnels', 'chat']);
    expect((await getForEditor('package', 'b'))?.includedServiceIds).toEqual([]);

    const chat = (await getForEditor('service', 'chat'))!;
    await updateRecord(admin, 'service', 'chat', { version: chat.updatedAt, newId: 'ai-chat', fields: { name: 'Chat', price: 100 } });
    expect((await getForEditor('package', 'a'))?.includedServiceIds).toEqual(['funnels', 'ai-chat']);
    expect((await getActivePackage('a'))?.includedServiceIds).toEqual(['funnels', 'ai-chat']);
  });

  it('a revert follows a service renamed since and leaves out one deleted since', async () => {
    const { id, snapshot } = await createRecord(admin, 'package', pkg('Mixed', { includedServiceIds: ['chat', 'reminders', 'outreach'] }));
    await updateRecord(admin, 'package', id, { version: snapshot!.updatedAt, fields: pkg('Mixed', { includedServiceIds: ['funnels'] }) });
    const chat = (await getForEditor('service', 'chat'))!;
    await updateRecord(admin, 'service', 'chat', { version: chat.updatedAt, newId: 'ai-chat', fields: { name: 'Chat', price: 100 } });
    await deleteRecord(admin, 'service', 'reminders');
    await revertChange(admin, (await lastActivity('update', id)).id);
    expect((await getForEditor('package', id))?.includedServiceIds).toEqual(['ai-chat', 'outreach']);
  });
});
