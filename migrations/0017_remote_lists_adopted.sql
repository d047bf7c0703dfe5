-- Every remote list is known, and adopting a list never removes what is on it (issue 24).
--
-- watch_lists.items_read_on: the items of every remote list, managed or not, are read at most once
-- a day, so `payments check` can tell a business on nobody's list from one on an unmanaged list.
--
-- managed_lists / managed_items: the durable record of what regwatch itself asked for on each
-- remote list. reconcile removes an item only when it is here and no longer desired; an item
-- someone put on the list at the registry by hand is reported, never removed. It lives apart from
-- desired_items on purpose: other systems rewrite desired_items with plain SQL (delete and insert
-- again, truncate), and a record kept in those rows would vanish with them.
ALTER TABLE "regwatch"."watch_lists" ADD COLUMN "items_read_on" date;
--> statement-breakpoint
ALTER TABLE "regwatch"."desired_items" ADD COLUMN "adopted_on" date;
--> statement-breakpoint
ALTER TABLE "regwatch"."desired_items" ADD COLUMN "adopted_from" text;
--> statement-breakpoint
CREATE TABLE "regwatch"."managed_lists" (
	"list_key" text PRIMARY KEY NOT NULL,
	"list_name" text NOT NULL,
	"managed_since" timestamp with time zone DEFAULT now() NOT NULL,
	"adopted_on" date,
	"adopted_items" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "regwatch"."managed_items" (
	"list_key" text NOT NULL,
	"tax_id" text NOT NULL,
	"adopted" boolean DEFAULT false NOT NULL,
	"asked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"run_id" bigint,
	CONSTRAINT "managed_items_list_key_tax_id_pk" PRIMARY KEY("list_key","tax_id"),
	CONSTRAINT "managed_items_list_key_fk" FOREIGN KEY ("list_key") REFERENCES "regwatch"."managed_lists"("list_key") ON DELETE cascade
);
--> statement-breakpoint
-- A database that reconciled before this migration: a desired list reconcile has acted on (it has
-- item outcomes) is managed on the remote list of its name that reconcile uses (the oldest), and
-- what regwatch asked for there is what is desired now plus every add it sent, except those it
-- removed afterwards. A desired list reconcile never acted on is left to adoption at the next run.
INSERT INTO "regwatch"."managed_lists" ("list_key", "list_name")
SELECT DISTINCT ON (l.list_name) l.list_key, l.list_name
FROM regwatch.watch_lists l
JOIN regwatch.desired_lists d ON d.list_name = l.list_name
WHERE l.deleted_at IS NULL
  AND EXISTS (SELECT 1 FROM regwatch.item_outcomes o WHERE o.list_name = l.list_name)
ORDER BY l.list_name, l.created_at NULLS LAST, l.list_key COLLATE "C";
--> statement-breakpoint
INSERT INTO "regwatch"."managed_items" ("list_key", "tax_id")
SELECT DISTINCT m.list_key, ids.tax_id
FROM regwatch.managed_lists m
JOIN LATERAL (
  SELECT substring(btrim(di.tax_id, ' ') from '^(\d{8})(-\d-\d{2})?$') AS tax_id
  FROM regwatch.desired_items di
  WHERE di.list_name = m.list_name
  UNION
  SELECT o.tax_id
  FROM regwatch.item_outcomes o
  WHERE o.list_name = m.list_name AND o.op = 'add'
    AND NOT EXISTS (
      SELECT 1 FROM regwatch.item_outcomes r
      WHERE r.list_name = o.list_name AND r.tax_id = o.tax_id AND r.op = 'remove'
        AND r.code IS NULL AND r.at > o.at)
) ids ON ids.tax_id ~ '^[0-9]{8}$';
--> statement-breakpoint
-- pending_remove now means what reconcile will do: only items regwatch asked for are removed.
CREATE OR REPLACE VIEW regwatch.v_watch_status AS
WITH remote AS (
  SELECT l.list_key, l.list_name, i.tax_id, i.added_at
  FROM regwatch.watched_items i
  JOIN regwatch.watch_lists l ON l.list_key = i.list_key AND l.deleted_at IS NULL
)
SELECT coalesce(d.list_name, r.list_name) AS list_name,
       coalesce(d.tax_id, r.tax_id) AS tax_id,
       d.tax_id IS NOT NULL AS desired,
       r.tax_id IS NOT NULL AS watched,
       r.added_at,
       o.op AS last_op,
       o.code AS last_code,
       o.message AS last_message,
       o.at AS last_outcome_at,
       CASE
         WHEN d.tax_id IS NOT NULL AND r.tax_id IS NOT NULL THEN 'in_sync'
         WHEN d.tax_id IS NOT NULL AND o.op = 'add' AND o.code IS NOT NULL THEN 'add_failed'
         WHEN d.tax_id IS NOT NULL THEN 'pending_add'
         WHEN dl.list_name IS NOT NULL AND mi.tax_id IS NOT NULL AND dl.prune THEN 'pending_remove'
         WHEN dl.list_name IS NOT NULL AND mi.tax_id IS NULL AND ml.list_key IS NOT NULL THEN 'not_requested'
         ELSE 'unmanaged'
       END AS state,
       coalesce(bp.name, b.full_name) AS business_name
FROM (
  SELECT DISTINCT di.list_name,
         coalesce(substring(btrim(di.tax_id) from '^(\d{8})(-\d-\d{2})?$'), di.tax_id) AS tax_id
  FROM regwatch.desired_items di
) d
FULL JOIN remote r ON r.list_name = d.list_name AND r.tax_id = d.tax_id
LEFT JOIN regwatch.desired_lists dl ON dl.list_name = coalesce(d.list_name, r.list_name)
LEFT JOIN regwatch.managed_lists ml ON ml.list_key = r.list_key
LEFT JOIN regwatch.managed_items mi ON mi.list_key = r.list_key AND mi.tax_id = r.tax_id
LEFT JOIN LATERAL (
  SELECT io.op, io.code, io.message, io.at
  FROM regwatch.item_outcomes io
  WHERE io.list_name = coalesce(d.list_name, r.list_name) AND io.tax_id = coalesce(d.tax_id, r.tax_id)
  ORDER BY io.at DESC
  LIMIT 1
) o ON true
LEFT JOIN regwatch.business_profiles bp ON bp.tax_id = coalesce(d.tax_id, r.tax_id)
LEFT JOIN regwatch.businesses b ON b.tax_id = coalesce(d.tax_id, r.tax_id);
--> statement-breakpoint
COMMENT ON VIEW regwatch.v_watch_status IS 'Desired items next to remote items and the last outcome of each, with a state: in_sync, pending_add, add_failed, pending_remove, not_requested or unmanaged.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.v_watch_status.state IS 'in_sync (desired and watched), pending_add, add_failed (last add refused), pending_remove (watched, asked for by regwatch, no longer desired, list prunes), not_requested (watched on a managed list, never asked for by regwatch: put there at the registry by hand; reported, never removed) or unmanaged (watched on a list regwatch does not manage or prune).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.watch_lists.items_read_on IS 'Day (in the registry''s zone) the list''s items were last read into watched_items; a sync reads every list''s items at most once a day, reconcile reads the lists it manages on every run.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.desired_items.adopted_on IS 'Day reconcile adopted the item from a remote list it started to manage (the item was already there); null for items someone asked for.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.desired_items.adopted_from IS 'Key of the remote list the item was adopted from (watch_lists.list_key); null unless adopted.';
--> statement-breakpoint
COMMENT ON TABLE regwatch.managed_lists IS 'Remote lists regwatch manages for a desired list of the same name, from the first reconcile that used them. A desired list whose remote list is not here adopts the remote items into desired_items before anything is planned. Forgotten when the desired list is dropped with regwatch watch drop-list.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.managed_lists.list_key IS 'Key of the remote list (watch_lists.list_key).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.managed_lists.list_name IS 'Name of the desired list it is managed for.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.managed_lists.managed_since IS 'When reconcile first managed the list (created it, adopted it, or the migration that introduced this table found it managed).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.managed_lists.adopted_on IS 'Day reconcile adopted the list''s existing items; null when regwatch created the list or managed it before adoption existed.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.managed_lists.adopted_items IS 'Items adopted into desired_items on that day.';
--> statement-breakpoint
COMMENT ON TABLE regwatch.managed_items IS 'What regwatch asked for on each managed remote list: items desired at a reconcile run, and adopted ones. reconcile removes a remote item only when it is here and no longer desired; the row goes when the item is removed or is neither desired nor on the list any more.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.managed_items.list_key IS 'Remote list (managed_lists.list_key).';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.managed_items.tax_id IS 'Tax base number regwatch asked to watch on that list.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.managed_items.adopted IS 'True when the item was adopted from the remote list rather than asked for.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.managed_items.asked_at IS 'When reconcile first recorded the item as asked for.';
--> statement-breakpoint
COMMENT ON COLUMN regwatch.managed_items.run_id IS 'Reconcile run that first recorded it (runs.id); null for rows the migration derived.';
