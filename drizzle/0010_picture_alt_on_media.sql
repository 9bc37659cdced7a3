ALTER TABLE "demos" ADD COLUMN "profile_picture_alt" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "picture_alt" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "picture_alt" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Decision 033: one alt text per picture, on its media row. An article's alt text for a library picture
-- moves to that picture (the newest article first, when several show it with different texts): the
-- text visitors saw wins over one typed only in the media library.
UPDATE "media" SET "alt" = "moved"."alt"
FROM (
  SELECT DISTINCT ON (substring("featured_image" from '^/media/([0-9a-f]{32})\.webp$'))
         substring("featured_image" from '^/media/([0-9a-f]{32})\.webp$') AS "id",
         btrim("featured_image_alt") AS "alt"
  FROM "articles"
  WHERE "featured_image" ~ '^/media/[0-9a-f]{32}\.webp$' AND btrim("featured_image_alt") <> ''
  ORDER BY 1, "updated_at" DESC, "id"
) AS "moved"
WHERE "media"."id" = "moved"."id";--> statement-breakpoint
-- The article keeps an alt text only for a picture at an outside address (or one whose media row is gone).
UPDATE "articles" SET "featured_image_alt" = ''
WHERE "featured_image" ~ '^/media/[0-9a-f]{32}\.webp$'
  AND EXISTS (SELECT 1 FROM "media" WHERE "media"."id" = substring("featured_image" from '^/media/([0-9a-f]{32})\.webp$'));
