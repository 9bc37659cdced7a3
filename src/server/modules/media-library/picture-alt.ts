/**
 * One alt text per picture (decision 033). A library picture (`/media/{id}.webp`) carries its alt text on
 * its media row: every record that shows it reads it from there, and an editor that saves the picture with
 * an alt text writes it there. A picture at an outside address has no media row, so its record keeps the
 * alt text in its own column, which is otherwise empty.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { CACHE_TAGS, type CacheTag } from '../../cache/tags';
import { media } from '../../db/schema';
import type { Database } from '../../db/client';
import { mediaIdFromUrl } from '../../../shared/schemas/fields';

type Executor = Pick<Database, 'select' | 'update'>;

/** The media id in a picture's URL, in PostgreSQL's regular-expression dialect (mediaIdFromUrl's pattern). */
const MEDIA_URL_ID = String.raw`^/media/([0-9a-f]{32})\.webp$`;

/** Pages that show pictures with their alt text: a picture's new alt text changes any of them. */
export const PICTURE_PAGE_TAGS: readonly CacheTag[] = [CACHE_TAGS.services, CACHE_TAGS.packages, CACHE_TAGS.demos, CACHE_TAGS.articles];

/** A picture's alt text as pages show it: its media row's for a library picture, else the record's own. */
export function pictureAltSql(picture: PgColumn, ownAlt: PgColumn): SQL<string> {
  return sql<string>`coalesce((select ${media.alt} from ${media} where ${media.id} = substring(${picture} from ${MEDIA_URL_ID}::text)), ${ownAlt})`;
}

/** The same for a statement written as text (the landing page's snapshot): column expressions, not input. */
export function pictureAltSqlText(picture: string, ownAlt: string): string {
  return `coalesce((select m.alt from media m where m.id = substring(${picture} from '${MEDIA_URL_ID}')), ${ownAlt})`;
}

/** The alt text a record shows for `picture`, whose own column holds `ownAlt`. */
export async function pictureAltOf(ex: Executor, picture: string, ownAlt: string): Promise<string> {
  const id = mediaIdFromUrl(picture);
  if (!id) return ownAlt;
  const [row] = await ex.select({ alt: media.alt }).from(media).where(eq(media.id, id)).limit(1);
  return row ? row.alt : ownAlt;
}

export interface PlacedAlt {
  /** What the record's own alt column stores: the text for an outside picture, '' for a library one. */
  recordAlt: string;
  /** A media row's alt text changed: every page showing that picture shows the new text. */
  pictureChanged: boolean;
}

/**
 * Puts a record's alt text where it belongs: on the picture's media row for a library picture (an empty
 * text never clears it: that is the media library's to do), on the record otherwise.
 */
export async function placePictureAlt(ex: Executor, picture: string, alt: string): Promise<PlacedAlt> {
  const text = alt.trim();
  const id = mediaIdFromUrl(picture);
  if (!id) return { recordAlt: picture ? text : '', pictureChanged: false };
  const [row] = await ex.select({ alt: media.alt }).from(media).where(eq(media.id, id)).limit(1);
  // A picture whose row is gone (an old import): the record keeps its text, so none is lost.
  if (!row) return { recordAlt: text, pictureChanged: false };
  if (!text || text === row.alt) return { recordAlt: '', pictureChanged: false };
  await ex.update(media).set({ alt: text }).where(eq(media.id, id));
  return { recordAlt: '', pictureChanged: true };
}
