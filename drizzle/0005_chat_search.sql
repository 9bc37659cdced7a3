CREATE TABLE "search_documents" (
	"kind" text NOT NULL,
	"ref_id" text NOT NULL,
	"title" text NOT NULL,
	"href" text NOT NULL,
	"snippet" text DEFAULT '' NOT NULL,
	"visible" boolean DEFAULT true NOT NULL,
	"document" "tsvector" NOT NULL,
	CONSTRAINT "search_documents_kind_ref_id_pk" PRIMARY KEY("kind","ref_id")
);
--> statement-breakpoint
DROP INDEX "articles_search_idx";--> statement-breakpoint
DROP INDEX "faqs_search_idx";--> statement-breakpoint
DROP INDEX "packages_search_idx";--> statement-breakpoint
DROP INDEX "services_search_idx";--> statement-breakpoint
CREATE INDEX "search_documents_document_idx" ON "search_documents" USING gin ("document");--> statement-breakpoint
-- Written by hand (decision 012): the functions and triggers that keep search_documents current.
-- Plain text of sanitized HTML: block tags become spaces, inline tags go, the entities the sanitizer writes are decoded, runs of
-- white space collapse. Also used for the snippet the assistant answers with.
CREATE FUNCTION search_plain_text(html text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT btrim(regexp_replace(
    replace(replace(replace(replace(replace(replace(replace(
      regexp_replace(regexp_replace(coalesce(html, ''), '</?(p|br|li|ul|ol|h[1-6]|div|blockquote|tr|td|th|table|section|pre|hr)(\s[^>]*)?/?>', ' ', 'gi'), '<[^>]*>', '', 'g'),
      '&nbsp;', ' '), '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&#x27;', ''''), '&amp;', '&'),
    '\s+', ' ', 'g'))
$$;
--> statement-breakpoint
-- The strings of a jsonb list (benefits, tags) or the title and description of each package feature.
CREATE FUNCTION search_list_text(list jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(
    CASE jsonb_typeof(item)
      WHEN 'string' THEN item #>> '{}'
      WHEN 'object' THEN concat_ws(' ', item ->> 'title', item ->> 'description')
      ELSE ''
    END, ' '), '')
  FROM jsonb_array_elements(CASE jsonb_typeof(list) WHEN 'array' THEN list ELSE '[]'::jsonb END) AS item
$$;
--> statement-breakpoint
-- The one weighting every kind shares (and the chat's query over the built-in FAQs): A title, B short, C long.
CREATE FUNCTION search_vector(a text, b text, c text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english'::regconfig, coalesce(a, '')), 'A')
      || setweight(to_tsvector('english'::regconfig, coalesce(b, '')), 'B')
      || setweight(to_tsvector('english'::regconfig, coalesce(c, '')), 'C')
$$;
--> statement-breakpoint
-- One function per kind builds its row from the source row: the triggers and the backfill share it.
CREATE FUNCTION search_document_of(s services) RETURNS search_documents LANGUAGE sql STABLE AS $$
  SELECT 'service', s.id, s.name, '/service/' || s.id, btrim(s.short_text), true,
    search_vector(s.name, concat_ws(' ', s.short_text, search_list_text(s.benefits)), search_plain_text(s.description))
$$;
--> statement-breakpoint
CREATE FUNCTION search_document_of(p packages) RETURNS search_documents LANGUAGE sql STABLE AS $$
  SELECT 'package', p.id, p.name, '/package/' || p.id, btrim(p.short_text), p.is_active,
    search_vector(p.name, p.short_text, concat_ws(' ', search_plain_text(p.description), search_list_text(p.features)))
$$;
--> statement-breakpoint
CREATE FUNCTION search_document_of(a articles) RETURNS search_documents LANGUAGE sql STABLE AS $$
  SELECT 'article', a.id, a.title, '/article/' || a.slug,
    CASE WHEN btrim(a.excerpt) <> '' THEN btrim(a.excerpt) ELSE left(search_plain_text(a.content), 400) END,
    a.published,
    search_vector(a.title, concat_ws(' ', a.excerpt, search_list_text(a.tags)), search_plain_text(a.content))
$$;
--> statement-breakpoint
CREATE FUNCTION search_document_of(f faqs) RETURNS search_documents LANGUAGE sql STABLE AS $$
  SELECT 'faq', f.id, f.question, '/#faq-' || f.id, search_plain_text(f.answer), true,
    search_vector(f.question, search_plain_text(f.answer), '')
$$;
--> statement-breakpoint
CREATE FUNCTION search_documents_put(d search_documents) RETURNS void LANGUAGE sql AS $$
  INSERT INTO search_documents VALUES (d.*)
  ON CONFLICT (kind, ref_id) DO UPDATE SET title = EXCLUDED.title, href = EXCLUDED.href, snippet = EXCLUDED.snippet,
    visible = EXCLUDED.visible, document = EXCLUDED.document
$$;
--> statement-breakpoint
-- Row trigger of the four content tables; TG_ARGV[0] is the kind. A renamed id leaves its old row behind.
CREATE FUNCTION search_documents_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM search_documents WHERE kind = TG_ARGV[0] AND ref_id = OLD.id;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.id IS DISTINCT FROM NEW.id THEN
    DELETE FROM search_documents WHERE kind = TG_ARGV[0] AND ref_id = OLD.id;
  END IF;
  -- plpgsql compiles this function once per table, so NEW picks the overload of its own row type.
  PERFORM search_documents_put(search_document_of(NEW));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION search_documents_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_documents WHERE kind = TG_ARGV[0];
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Updates that change nothing searchable (the admin's reordering, updated_at) skip the work.
CREATE TRIGGER search_documents_services_write AFTER INSERT OR DELETE ON services FOR EACH ROW EXECUTE FUNCTION search_documents_sync('service');
--> statement-breakpoint
CREATE TRIGGER search_documents_services_update AFTER UPDATE ON services FOR EACH ROW
  WHEN ((OLD.id, OLD.name, OLD.short_text, OLD.benefits, OLD.description) IS DISTINCT FROM (NEW.id, NEW.name, NEW.short_text, NEW.benefits, NEW.description))
  EXECUTE FUNCTION search_documents_sync('service');
--> statement-breakpoint
CREATE TRIGGER search_documents_services_truncate AFTER TRUNCATE ON services FOR EACH STATEMENT EXECUTE FUNCTION search_documents_truncated('service');
--> statement-breakpoint
CREATE TRIGGER search_documents_packages_write AFTER INSERT OR DELETE ON packages FOR EACH ROW EXECUTE FUNCTION search_documents_sync('package');
--> statement-breakpoint
CREATE TRIGGER search_documents_packages_update AFTER UPDATE ON packages FOR EACH ROW
  WHEN ((OLD.id, OLD.name, OLD.short_text, OLD.description, OLD.features, OLD.is_active) IS DISTINCT FROM (NEW.id, NEW.name, NEW.short_text, NEW.description, NEW.features, NEW.is_active))
  EXECUTE FUNCTION search_documents_sync('package');
--> statement-breakpoint
CREATE TRIGGER search_documents_packages_truncate AFTER TRUNCATE ON packages FOR EACH STATEMENT EXECUTE FUNCTION search_documents_truncated('package');
--> statement-breakpoint
CREATE TRIGGER search_documents_articles_write AFTER INSERT OR DELETE ON articles FOR EACH ROW EXECUTE FUNCTION search_documents_sync('article');
--> statement-breakpoint
CREATE TRIGGER search_documents_articles_update AFTER UPDATE ON articles FOR EACH ROW
  WHEN ((OLD.id, OLD.slug, OLD.title, OLD.excerpt, OLD.content, OLD.tags, OLD.published) IS DISTINCT FROM (NEW.id, NEW.slug, NEW.title, NEW.excerpt, NEW.content, NEW.tags, NEW.published))
  EXECUTE FUNCTION search_documents_sync('article');
--> statement-breakpoint
CREATE TRIGGER search_documents_articles_truncate AFTER TRUNCATE ON articles FOR EACH STATEMENT EXECUTE FUNCTION search_documents_truncated('article');
--> statement-breakpoint
CREATE TRIGGER search_documents_faqs_write AFTER INSERT OR DELETE ON faqs FOR EACH ROW EXECUTE FUNCTION search_documents_sync('faq');
--> statement-breakpoint
CREATE TRIGGER search_documents_faqs_update AFTER UPDATE ON faqs FOR EACH ROW
  WHEN ((OLD.id, OLD.question, OLD.answer) IS DISTINCT FROM (NEW.id, NEW.question, NEW.answer))
  EXECUTE FUNCTION search_documents_sync('faq');
--> statement-breakpoint
CREATE TRIGGER search_documents_faqs_truncate AFTER TRUNCATE ON faqs FOR EACH STATEMENT EXECUTE FUNCTION search_documents_truncated('faq');
--> statement-breakpoint
-- Backfill what is already there.
INSERT INTO search_documents SELECT d.* FROM services s, LATERAL search_document_of(s) d;
--> statement-breakpoint
INSERT INTO search_documents SELECT d.* FROM packages p, LATERAL search_document_of(p) d;
--> statement-breakpoint
INSERT INTO search_documents SELECT d.* FROM articles a, LATERAL search_document_of(a) d;
--> statement-breakpoint
INSERT INTO search_documents SELECT d.* FROM faqs f, LATERAL search_document_of(f) d;
