import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../src/server/db';
import type { DatabaseHandle } from '../../src/server/db/client';
import { packageServices, packages, services } from '../../src/server/db/schema';
import { bestValuePackageIds } from '../../src/server/modules/catalog/best-value';
import { getActivePackage, listActivePackages } from '../../src/server/modules/catalog/repository';
import { loadPackageCards } from '../../src/server/modules/pages/package-cards';
import { freshDatabase } from '../support/db';

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await freshDatabase();
  await db()
    .insert(services)
    .values(['s1', 's2', 's3', 's4', 's5'].map((id, i) => ({ id, name: `Service ${id}`, shortText: `<p>About ${id}</p>`, order: i, price: 250 })));
});
afterEach(async () => {
  await handle.close();
});

async function addPackage(id: string, priceSetup: number | null, included: string[], isActive = true, order = 0) {
  await db().insert(packages).values({ id, name: `Package ${id}`, priceSetup, priceMonthly: 199, isActive, order });
  if (included.length) {
    await db().insert(packageServices).values(included.map((serviceId, position) => ({ packageId: id, serviceId, position })));
  }
}

describe('bestValuePackageIds', () => {
  it('marks active packages with at least 3 included services and a setup price of at least 1000', async () => {
    await addPackage('exactly', 1000, ['s1', 's2', 's3']);
    await addPackage('more', 4999.5, ['s1', 's2', 's3', 's4', 's5']);
    await addPackage('cheap', 999.99, ['s1', 's2', 's3']);
    await addPackage('few', 5000, ['s1', 's2']);
    await addPackage('no-price', null, ['s1', 's2', 's3']);
    await addPackage('none', 5000, []);
    await addPackage('inactive', 5000, ['s1', 's2', 's3'], false);
    expect([...(await bestValuePackageIds())].sort()).toEqual(['exactly', 'more']);
  });

  it('is empty when there are no packages', async () => {
    expect((await bestValuePackageIds()).size).toBe(0);
  });

  it('given ids, decides for exactly those packages whatever their status (an admin previews an inactive one)', async () => {
    await addPackage('inactive', 5000, ['s1', 's2', 's3'], false);
    await addPackage('inactive-few', 5000, ['s1'], false);
    await addPackage('active', 5000, ['s1', 's2', 's3']);
    expect([...(await bestValuePackageIds(['inactive', 'inactive-few']))]).toEqual(['inactive']);
    expect((await bestValuePackageIds([])).size).toBe(0);
  });
});

function everyKeyAndValue(value: unknown, found: { keys: string[]; values: unknown[] } = { keys: [], values: [] }) {
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      found.keys.push(key);
      everyKeyAndValue(inner, found);
    }
  } else found.values.push(value);
  return found;
}

describe('loadPackageCards', () => {
  it('gives each package its included services in includedServiceIds order and the BEST VALUE flag, without prices', async () => {
    await addPackage('big', 2500, ['s3', 's1', 's5', 's2'], true, 0);
    await addPackage('small', 300, ['s4'], true, 1);
    const cards = await loadPackageCards(await listActivePackages());
    expect(cards.map((c) => c.pkg.id)).toEqual(['big', 'small']);
    expect(cards[0]?.includedServices.map((s) => s.id)).toEqual(['s3', 's1', 's5', 's2']);
    expect(cards[0]?.includedServices[0]).toEqual({ id: 's3', name: 'Service s3', shortText: '<p>About s3</p>' });
    expect(cards.map((c) => c.bestValue)).toEqual([true, false]);
    // The setup price decided the badge, but no price leaves the server with the cards: no key
    // names a price and no value is one (compared as values, so a timestamp's ".250Z" is no match).
    const { keys, values } = everyKeyAndValue(cards);
    expect(keys.filter((k) => /price/i.test(k))).toEqual([]);
    expect(values.filter((v) => [2500, 300, 199, 250].includes(Number(v)))).toEqual([]);
  });

  it('skips included services that no longer exist', async () => {
    await addPackage('p', 1200, ['s1', 's2', 's3']);
    await db().delete(services).where(eq(services.id, 's2'));
    const [card] = await loadPackageCards(await listActivePackages());
    expect(card?.includedServices.map((s) => s.id)).toEqual(['s1', 's3']);
    // Deleting a service removes it from the package, so the package has fallen below 3 services.
    expect(card?.bestValue).toBe(false);
  });

  it('never finds an inactive package for the public detail page', async () => {
    await addPackage('off', 2000, ['s1'], false);
    expect(await getActivePackage('off')).toBeUndefined();
    expect(await loadPackageCards([])).toEqual([]);
  });
});
