-- A paused alert matches nothing, so it leaves the reverse-search index (src/alerts/repository.ts
-- setPaused); resuming files it again. Alerts paused before this take the same place.
DELETE FROM `alert_terms` WHERE `alert_id` IN (SELECT `id` FROM `alerts` WHERE `status` = 'paused');
