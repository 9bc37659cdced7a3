/**
 * The admin content engine (src/server/modules/content/service.ts), through services: every write is
 * the acting admin's, validated by the shared schema, recorded, reversible, and keeps moved URLs working.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityLog, redirects, services } from '../../src/server/db/schema';
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

const service = (name: string, extra: Record<string, unknown> = {}) => ({ name, shortText: `${name} in short`, price: 500, benefits: ['Faster replies'], ...extra });
const failure = (code: string) => expect.objectContaining({ code });
const activities = () => h.handle.db.select().from(activityLog).orderBy(activityLog.at);
const query = { q: '', filter: '', sort: 'order', dir: 'asc' as const, page: 1, perPage: 50 };

describe('who may write', () => {
  it('refuses a member and a visitor, and changes nothing', async () => {
    await expect(createRecord(member, 'service', service('Sneaky'))).rejects.toEqual(failure('NOT_ADMIN'));
    await expect(createRecord(undefined, 'service', service('Sneaky'))).rejects.toEqual(failure('NO_USER_LOGGED_IN'));
    expect(await h.handle.db.select().from(services)).toEqual([]);
    expect(await activities()).toEqual([]);
  });
});

describe('create, update, duplicate, delete, reorder', () => {
  it('creates with a readable unique id at the end of the list, and records who did it', async () => {
    const a = await createRecord(admin, 'service', service('Lead Outreach'));
    const b = await createRecord(admin, 'service', service('Lead outreach!'));
    expect([a.id, b.id]).toEqual(['lead-outreach', 'lead-outreach-2']);
    expect(a.tags).toEqual(['services', 'packages']);
    expect((await getForEditor('service', 'lead-outreach-2'))?.order).toBe(1);
    const [entry] = await activities();
    expect(entry).toMatchObject({ actorEmail: 'owner@example.com', action: 'create', entityType: 'service', entityId: 'lead-outreach', summary: 'Created service “Lead Outreach”' });
  });

  it('says which field is wrong and why; nothing is saved', async () => {
    const bad = createRecord(admin, 'service', { name: 'x'.repeat(100_000), price: -5, benefits: [''], picture: 'javascript:alert(1)' });
    await expect(bad).rejects.toMatchObject({
      code: 'INVALID',
      fieldErrors: {
        name: 'Must be at most 200 characters',
        price: 'Must be at least 0',
        'benefits.0': 'Must not be empty',
        picture: 'must be empty, a /media/{id}.webp path or an http(s) URL',
      },
    });
    await expect(createRecord(admin, 'service', { name: 'A', price: 'cheap' })).rejects.toMatchObject({ fieldErrors: { price: 'Must be a number' } });
    await expect(createRecord(admin, 'service', { name: 'A', role: 'admin' })).rejects.toMatchObject({ fieldErrors: { role: 'This field cannot be set' } });
    expect(await h.handle.db.select().from(services)).toEqual([]);
  });

  it('sanitizes HTML fields on save', async () => {
    const { id } = await createRecord(admin, 'service', service('Safe', { description: '<p onclick="x()">Hi<script>alert(1)</script><a href="javascript:alert(1)">x</a></p>' }));
    expect((await getForEditor('service', id))?.description).toBe('<p>Hi<a>x</a></p>');
  });

  it('updates with the version it opened; a second admin saving the same record later is told, nothing lost', async () => {
    const { id, snapshot } = await createRecord(admin, 'service', service('Reminders'));
    const version = snapshot!.updatedAt;
    const first = await updateRecord(admin, 'service', id, { version, fields: service('Reminders', { price: 900 }) });
    expect(first.snapshot).toMatchObject({ price: 900 });
    // The same editor retrying the same save (its answer was lost): accepted, nothing changes.
    expect((await updateRecord(admin, 'service', id, { version, fields: service('Reminders', { price: 900 }) })).tags).toEqual([]);
    // Another editor opened before the first save and saves something else: refused with who saved.
    await expect(updateRecord(admin, 'service', id, { version, fields: service('Reminders', { price: 100 }) })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('owner@example.com saved this service at'),
    });
    expect((await getForEditor('service', id))?.price).toBe(900);
    const update = (await activities()).find((e) => e.action === 'update')!;
    expect(update.summary).toBe('Updated service “Reminders”: price');
    expect(update.before).toMatchObject({ price: 500 });
    expect(update.after).toMatchObject({ price: 900 });
  });

  it('renaming the URL name keeps the old URL working with a 301, and chains collapse', async () => {
    const { id, snapshot } = await createRecord(admin, 'service', service('Nurture'));
    const one = await updateRecord(admin, 'service', id, { version: snapshot!.updatedAt, newId: 'lead-nurture', fields: service('Nurture') });
    const two = await updateRecord(admin, 'service', one.id, { version: one.snapshot!.updatedAt, newId: 'nurturing', fields: service('Nurture') });
    expect(two.id).toBe('nurturing');
    expect(await movedTo('/service/nurture')).toBe('/service/nurturing');
    expect(await movedTo('/service/lead-nurture')).toBe('/service/nurturing');
    // Back to the first name: that page is served again, not redirected.
    const three = await updateRecord(admin, 'service', 'nurturing', { version: two.snapshot!.updatedAt, newId: 'nurture', fields: service('Nurture') });
    expect(await movedTo('/service/nurture')).toBeUndefined();
    expect((await h.handle.db.select().from(redirects)).map((r) => [r.fromPath, r.toPath]).sort()).toEqual([
      ['/service/lead-nurture', '/service/nurture'],
      ['/service/nurturing', '/service/nurture'],
    ]);
    await expect(
      updateRecord(admin, 'service', 'nurture', { version: three.snapshot!.updatedAt, newId: 'has space', fields: service('Nurture') }),
    ).rejects.toMatchObject({ code: 'INVALID', fieldErrors: { id: expect.stringContaining('only letters, digits') } });
  });

  it('duplicates right after the original, and deletes keeping the order dense', async () => {
    for (const n of ['One', 'Two', 'Three']) await createRecord(admin, 'service', service(n));
    const copy = await duplicateRecord(admin, 'service', 'one');
    expect(copy.id).toBe('one-copy');
    expect(copy.snapshot).toMatchObject({ name: 'One (copy)', price: 500 });
    expect((await listForAdmin('service', query)).rows.map((r) => r.id)).toEqual(['one', 'one-copy', 'two', 'three']);
    await deleteRecord(admin, 'service', 'two');
    const rows = (await listForAdmin('service', query)).rows;
    expect(rows.map((r) => [r.id, r.order])).toEqual([['one', 0], ['one-copy', 1], ['three', 2]]);
    await expect(deleteRecord(admin, 'service', 'two')).rejects.toEqual(failure('NOT_FOUND'));
  });

  it('reorders in one go, and refuses a list that is not exactly the current records', async () => {
    for (const n of ['A', 'B', 'C']) await createRecord(admin, 'service', service(n));
    await reorderRecords(admin, 'service', ['c', 'a', 'b']);
    expect((await listForAdmin('service', query)).rows.map((r) => r.id)).toEqual(['c', 'a', 'b']);
    await expect(reorderRecords(admin, 'service', ['c', 'a'])).rejects.toEqual(failure('CONFLICT'));
    await expect(reorderRecords(admin, 'service', ['c', 'a', 'a'])).rejects.toEqual(failure('CONFLICT'));
  });

  it('lists with search, sort and pages', async () => {
    for (const n of ['Alpha', 'Beta', 'Gamma']) await createRecord(admin, 'service', service(n));
    expect((await listForAdmin('service', { ...query, q: 'amm' })).rows.map((r) => r.id)).toEqual(['gamma']);
    expect((await listForAdmin('service', { ...query, q: '%' })).total).toBe(0);
    const byName = await listForAdmin('service', { ...query, sort: 'name', dir: 'desc', perPage: 2 });
    expect(byName).toMatchObject({ total: 3, rows: [{ id: 'gamma' }, { id: 'beta' }] });
  });
});

describe('revert from the activity log', () => {
  it('reverts an update, a delete, a create and a reorder; each revert is recorded', async () => {
    const { id, snapshot } = await createRecord(admin, 'service', service('Funnels'));
    await createRecord(admin, 'service', service('Other'));
    await updateRecord(admin, 'service', id, { version: snapshot!.updatedAt, fields: service('Funnels', { price: 1200, benefits: ['More leads'] }) });
    const updateEntry = (await activities()).find((e) => e.action === 'update')!;
    await revertChange(admin, updateEntry.id);
    expect(await getForEditor('service', id)).toMatchObject({ price: 500, benefits: ['Faster replies'] });

    await reorderRecords(admin, 'service', ['other', 'funnels']);
    await revertChange(admin, (await activities()).find((e) => e.action === 'reorder')!.id);
    expect((await listForAdmin('service', query)).rows.map((r) => r.id)).toEqual(['funnels', 'other']);

    await deleteRecord(admin, 'service', id);
    await revertChange(admin, (await activities()).find((e) => e.action === 'delete')!.id);
    expect(await getForEditor('service', id)).toMatchObject({ name: 'Funnels', order: 0 });

    const created = (await activities()).find((e) => e.action === 'create' && e.entityId === 'other')!;
    await revertChange(admin, created.id);
    expect(await getForEditor('service', 'other')).toBeUndefined();

    const reverts = (await activities()).filter((e) => e.action === 'revert');
    expect(reverts).toHaveLength(4);
    expect(reverts.every((r) => r.revertOf && r.actorEmail === 'owner@example.com')).toBe(true);
    await expect(revertChange(member, created.id)).rejects.toEqual(failure('NOT_ADMIN'));
  });

  it('refuses to revert a change the record has moved on from', async () => {
    const { id, snapshot } = await createRecord(admin, 'service', service('Chat'));
    const first = await updateRecord(admin, 'service', id, { version: snapshot!.updatedAt, fields: service('Chat', { price: 1 }) });
    await updateRecord(admin, 'service', id, { version: first.snapshot!.updatedAt, fields: service('Chat', { price: 2 }) });
    const older = (await activities()).filter((e) => e.action === 'update')[0]!;
    await expect(revertChange(admin, older.id)).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('revert the later changes first') });
    expect((await h.handle.db.select().from(services).where(eq(services.id, id)))[0]?.price).toBe(2);
  });
});
