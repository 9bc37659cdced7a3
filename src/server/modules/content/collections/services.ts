/** Services in the admin (seed section 3): name, picture, price, short text, benefits, description. */
import { serviceSchema } from '../../../../shared/schemas/catalog';
import type { z } from '../../../../shared/zod';
import { CACHE_TAGS } from '../../../cache/tags';
import { services } from '../../../db/schema';
import type { Collection, Snapshot } from '../types';
import { iso, tableOps } from './table-ops';

const fields = serviceSchema;
type Fields = z.output<typeof fields>;

const ops = tableOps({
  table: services,
  id: services.id,
  order: services.order,
  createdAt: services.createdAt,
  search: [services.name, services.shortText, services.id],
  sorts: { name: services.name, updated: services.updatedAt },
});

function toSnapshot(row: typeof services.$inferSelect): Snapshot {
  return {
    id: row.id,
    order: row.order,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    name: row.name,
    picture: row.picture,
    pictureAlt: row.pictureAlt,
    price: row.price,
    shortText: row.shortText,
    description: row.description,
    benefits: row.benefits,
  };
}

export const servicesCollection: Collection<Fields> = {
  type: 'service',
  label: { one: 'service', many: 'services' },
  adminSlug: 'services',
  fields,
  htmlFields: ['description'],
  // Packages show their included services, and the landing page shows both.
  tags: [CACHE_TAGS.services, CACHE_TAGS.packages],
  titleField: 'name',
  publicPath: (s) => `/service/${encodeURIComponent(s.id)}`,
  ordered: true,
  list: {
    sorts: [
      { key: 'order', label: 'Public order' },
      { key: 'name', label: 'Name' },
      { key: 'updated', label: 'Last changed' },
    ],
    filters: [],
  },

  ...ops.storage(toSnapshot),
  async listRows(ex, query) {
    const { rows, total } = await ops.page(ex, query, {
      id: services.id,
      name: services.name,
      shortText: services.shortText,
      picture: services.picture,
      price: services.price,
      order: services.order,
      updatedAt: services.updatedAt,
    });
    return {
      total,
      rows: rows.map((r) => ({
        id: r.id,
        title: r.name,
        subtitle: r.shortText,
        badges: r.price === null ? [{ label: 'No price', tone: 'warning' as const }] : [],
        picture: r.picture,
        order: r.order,
        updatedAt: iso(r.updatedAt),
        publicPath: `/service/${encodeURIComponent(r.id)}`,
      })),
    };
  },
};
