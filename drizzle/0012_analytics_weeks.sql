CREATE TABLE "analytics_page_weeks" (
	"week" date NOT NULL,
	"path" text NOT NULL,
	"views" bigint NOT NULL,
	"day_rows" integer NOT NULL,
	CONSTRAINT "analytics_page_weeks_week_path_pk" PRIMARY KEY("week","path")
);
--> statement-breakpoint
CREATE TABLE "analytics_source_weeks" (
	"week" date NOT NULL,
	"referrer_host" text NOT NULL,
	"utm_source" text NOT NULL,
	"utm_medium" text NOT NULL,
	"utm_campaign" text NOT NULL,
	"visits" bigint NOT NULL,
	"day_rows" integer NOT NULL,
	CONSTRAINT "analytics_source_weeks_week_referrer_host_utm_source_utm_medium_utm_campaign_pk" PRIMARY KEY("week","referrer_host","utm_source","utm_medium","utm_campaign")
);
--> statement-breakpoint
-- Written by hand: the triggers that keep the weekly tables equal to the sums of analytics_pages and
-- analytics_sources per week (see schema.ts). One per statement with its rows as transition tables:
-- inserted rows add, deleted rows take away, an update (the ingest's increments) adds its new rows and
-- takes away its old ones. Keys are written in order, so concurrent flushes lock week rows alike.
CREATE FUNCTION analytics_week_of(day date) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT day - (extract(isodow FROM day)::int - 1)
$$;
--> statement-breakpoint
CREATE FUNCTION analytics_page_weeks_apply(in_days date[], in_paths text[], in_views bigint[], in_day_rows int[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_page_weeks AS w (week, path, views, day_rows)
  SELECT analytics_week_of(d.day), d.path, sum(d.views), sum(d.day_rows)
    FROM unnest(in_days, in_paths, in_views, in_day_rows) AS d(day, path, views, day_rows)
    GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (week, path) DO UPDATE SET views = w.views + excluded.views, day_rows = w.day_rows + excluded.day_rows;
  -- A week loses rows only when per-day rows are deleted (or moved): never on the ingest's increments.
  IF EXISTS (SELECT FROM unnest(in_days, in_paths, in_day_rows) AS d(day, path, day_rows) GROUP BY analytics_week_of(d.day), d.path HAVING sum(d.day_rows) < 0) THEN
    DELETE FROM analytics_page_weeks w WHERE w.day_rows = 0;
  END IF;
END
$$;
--> statement-breakpoint
CREATE FUNCTION analytics_page_weeks_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM analytics_page_weeks_apply(array_agg(day), array_agg(path), array_agg(views::bigint), array_agg(1)) FROM pages_added;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM analytics_page_weeks_apply(array_agg(day), array_agg(path), array_agg(-views::bigint), array_agg(-1)) FROM pages_removed;
  ELSE
    PERFORM analytics_page_weeks_apply(array_agg(day), array_agg(path), array_agg(v), array_agg(n))
      FROM (SELECT day, path, views::bigint AS v, 1 AS n FROM pages_added UNION ALL SELECT day, path, -views::bigint, -1 FROM pages_removed) d;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION analytics_source_weeks_apply(in_days date[], in_hosts text[], in_sources text[], in_media text[], in_campaigns text[], in_visits bigint[], in_day_rows int[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_source_weeks AS w (week, referrer_host, utm_source, utm_medium, utm_campaign, visits, day_rows)
  SELECT analytics_week_of(d.day), d.host, d.source, d.medium, d.campaign, sum(d.visits), sum(d.day_rows)
    FROM unnest(in_days, in_hosts, in_sources, in_media, in_campaigns, in_visits, in_day_rows) AS d(day, host, source, medium, campaign, visits, day_rows)
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (week, referrer_host, utm_source, utm_medium, utm_campaign)
    DO UPDATE SET visits = w.visits + excluded.visits, day_rows = w.day_rows + excluded.day_rows;
  IF EXISTS (SELECT FROM unnest(in_days, in_hosts, in_sources, in_media, in_campaigns, in_day_rows) AS d(day, host, source, medium, campaign, day_rows)
             GROUP BY analytics_week_of(d.day), d.host, d.source, d.medium, d.campaign HAVING sum(d.day_rows) < 0) THEN
    DELETE FROM analytics_source_weeks w WHERE w.day_rows = 0;
  END IF;
END
$$;
--> statement-breakpoint
CREATE FUNCTION analytics_source_weeks_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM analytics_source_weeks_apply(array_agg(day), array_agg(referrer_host), array_agg(utm_source), array_agg(utm_medium), array_agg(utm_campaign), array_agg(visits::bigint), array_agg(1))
      FROM sources_added;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM analytics_source_weeks_apply(array_agg(day), array_agg(referrer_host), array_agg(utm_source), array_agg(utm_medium), array_agg(utm_campaign), array_agg(-visits::bigint), array_agg(-1))
      FROM sources_removed;
  ELSE
    PERFORM analytics_source_weeks_apply(array_agg(day), array_agg(referrer_host), array_agg(utm_source), array_agg(utm_medium), array_agg(utm_campaign), array_agg(v), array_agg(n))
      FROM (SELECT day, referrer_host, utm_source, utm_medium, utm_campaign, visits::bigint AS v, 1 AS n FROM sources_added
            UNION ALL SELECT day, referrer_host, utm_source, utm_medium, utm_campaign, -visits::bigint, -1 FROM sources_removed) d;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION analytics_weeks_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'analytics_pages' THEN DELETE FROM analytics_page_weeks; ELSE DELETE FROM analytics_source_weeks; END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER analytics_page_weeks_insert AFTER INSERT ON analytics_pages REFERENCING NEW TABLE AS pages_added
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_page_weeks_sync();
--> statement-breakpoint
CREATE TRIGGER analytics_page_weeks_update AFTER UPDATE ON analytics_pages REFERENCING OLD TABLE AS pages_removed NEW TABLE AS pages_added
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_page_weeks_sync();
--> statement-breakpoint
CREATE TRIGGER analytics_page_weeks_delete AFTER DELETE ON analytics_pages REFERENCING OLD TABLE AS pages_removed
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_page_weeks_sync();
--> statement-breakpoint
CREATE TRIGGER analytics_page_weeks_truncate AFTER TRUNCATE ON analytics_pages FOR EACH STATEMENT EXECUTE FUNCTION analytics_weeks_truncated();
--> statement-breakpoint
CREATE TRIGGER analytics_source_weeks_insert AFTER INSERT ON analytics_sources REFERENCING NEW TABLE AS sources_added
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_source_weeks_sync();
--> statement-breakpoint
CREATE TRIGGER analytics_source_weeks_update AFTER UPDATE ON analytics_sources REFERENCING OLD TABLE AS sources_removed NEW TABLE AS sources_added
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_source_weeks_sync();
--> statement-breakpoint
CREATE TRIGGER analytics_source_weeks_delete AFTER DELETE ON analytics_sources REFERENCING OLD TABLE AS sources_removed
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_source_weeks_sync();
--> statement-breakpoint
CREATE TRIGGER analytics_source_weeks_truncate AFTER TRUNCATE ON analytics_sources FOR EACH STATEMENT EXECUTE FUNCTION analytics_weeks_truncated();
--> statement-breakpoint
-- The days already counted.
SELECT analytics_page_weeks_apply(array_agg(day), array_agg(path), array_agg(views::bigint), array_agg(1)) FROM analytics_pages;
--> statement-breakpoint
SELECT analytics_source_weeks_apply(array_agg(day), array_agg(referrer_host), array_agg(utm_source), array_agg(utm_medium), array_agg(utm_campaign), array_agg(visits::bigint), array_agg(1))
  FROM analytics_sources;
