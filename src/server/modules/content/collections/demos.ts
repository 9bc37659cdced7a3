/** Demo builds in the admin (seed section 3): name, profile picture, short text, description, suitable-for list. */
import { demoSchema } from '../../../../shared/schemas/catalog';
import type { z } from '../../../../shared/zod';
import { CACHE_TAGS } from '../../../cache/tags';
import { demos } from '../../../db/schema';
import type { Collection, Snapshot } from '../types';
import { iso, tableOps } from './table-ops';

const fields = demoSchema;
type Fields = z.output<typeof fields>;

const ops = tableOps({
  table: demos,
  id: demos.id,
  order: demos.order,
  createdAt: demos.createdAt,
  search: [demos.name, demos.shortText, demos.id],
  sorts: { name: demos.name, updated: demos.updatedAt },
});

const publicPath = (id: string) => `/demo/${encodeURIComponent(id)}`;

function toSnapshot(row: typeof demos.$inferSelect): Snapshot {
  return {
    id: row.id,
    order: row.order,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    name: row.name,
    profilePicture: row.profilePicture,
    profilePictureAlt: row.profilePictureAlt,
    shortText: row.shortText,
    description: row.description,
    suitableFor: row.suitableFor,
  };
}

export const demosCollection: Collection<Fields> = {
  type: 'demo',
  label: { one: 'demo', many: 'demos' },
  adminSlug: 'demos',
  fields,
  htmlFields: ['description'],
  // The demo pages, the landing page's demos block and the sitemap carry this tag.
  tags: [CACHE_TAGS.demos],
  titleField: 'name',
  publicPath: (s) => publicPath(s.id),
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
      id: demos.id,
      name: demos.name,
      shortText: demos.shortText,
      profilePicture: demos.profilePicture,
      suitableFor: demos.suitableFor,
      order: demos.order,
      updatedAt: demos.updatedAt,
    });
    return {
      total,
      rows: rows.map((r) => ({
        id: r.id,
        title: r.name,
        subtitle: r.shortText,
        // The card shows who a demo suits: without it the card looks unfinished.
        badges: r.suitableFor.length === 0 ? [{ label: 'No “suitable for”', tone: 'warning' as const }] : [],
        picture: r.profilePicture,
        order: r.order,
        updatedAt: iso(r.updatedAt),
        publicPath: publicPath(r.id),
      })),
    };
  },
};
