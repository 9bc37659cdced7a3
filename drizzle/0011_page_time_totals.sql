CREATE TABLE "page_time_totals" (
	"user_id" text NOT NULL,
	"page_path" text NOT NULL,
	"total_ms" bigint NOT NULL,
	"views" bigint NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	CONSTRAINT "page_time_totals_user_id_page_path_pk" PRIMARY KEY("user_id","page_path")
);
--> statement-breakpoint
ALTER TABLE "page_time_totals" ADD CONSTRAINT "page_time_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Written by hand: the triggers that keep page_time_totals equal to sums over page_times (see schema.ts),
-- one per statement with its rows as a transition table, so a bulk insert (the import, a seed) is one
-- grouped upsert. Inserted rows add to their (member, path); deleted or updated ones have their
-- (member, path) counted again from page_times (a maximum cannot be taken back).
CREATE FUNCTION page_time_totals_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO page_time_totals AS t (user_id, page_path, total_ms, views, last_seen)
  SELECT user_id, page_path, sum(duration_ms), count(*), max(at) FROM page_times_added GROUP BY user_id, page_path
  ON CONFLICT (user_id, page_path) DO UPDATE
    SET total_ms = t.total_ms + excluded.total_ms, views = t.views + excluded.views, last_seen = greatest(t.last_seen, excluded.last_seen);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION page_time_totals_recount(user_ids text[], page_paths text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM page_time_totals t USING unnest(user_ids, page_paths) AS k(user_id, page_path)
    WHERE t.user_id = k.user_id AND t.page_path = k.page_path;
  INSERT INTO page_time_totals (user_id, page_path, total_ms, views, last_seen)
  SELECT p.user_id, p.page_path, sum(p.duration_ms), count(*), max(p.at)
    FROM page_times p JOIN (SELECT DISTINCT * FROM unnest(user_ids, page_paths) AS k(user_id, page_path)) k
      ON p.user_id = k.user_id AND p.page_path = k.page_path
    GROUP BY p.user_id, p.page_path;
END
$$;
--> statement-breakpoint
CREATE FUNCTION page_time_totals_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM page_time_totals_recount(array_agg(user_id), array_agg(page_path)) FROM (SELECT DISTINCT user_id, page_path FROM page_times_removed) k;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION page_time_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM page_time_totals_recount(array_agg(user_id), array_agg(page_path))
    FROM (SELECT user_id, page_path FROM page_times_before UNION SELECT user_id, page_path FROM page_times_after) k;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION page_time_totals_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM page_time_totals;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER page_time_totals_insert AFTER INSERT ON page_times REFERENCING NEW TABLE AS page_times_added
  FOR EACH STATEMENT EXECUTE FUNCTION page_time_totals_add();
--> statement-breakpoint
CREATE TRIGGER page_time_totals_delete AFTER DELETE ON page_times REFERENCING OLD TABLE AS page_times_removed
  FOR EACH STATEMENT EXECUTE FUNCTION page_time_totals_removed();
--> statement-breakpoint
CREATE TRIGGER page_time_totals_update AFTER UPDATE ON page_times REFERENCING OLD TABLE AS page_times_before NEW TABLE AS page_times_after
  FOR EACH STATEMENT EXECUTE FUNCTION page_time_totals_changed();
--> statement-breakpoint
CREATE TRIGGER page_time_totals_truncate AFTER TRUNCATE ON page_times FOR EACH STATEMENT EXECUTE FUNCTION page_time_totals_truncated();
--> statement-breakpoint
-- The records already there.
INSERT INTO page_time_totals (user_id, page_path, total_ms, views, last_seen)
SELECT user_id, page_path, sum(duration_ms), count(*), max(at) FROM page_times GROUP BY user_id, page_path;
