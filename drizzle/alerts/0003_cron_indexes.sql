DROP INDEX `alerts_status_idx`;--> statement-breakpoint
CREATE INDEX `alerts_pending_idx` ON `alerts` (`created_at`) WHERE "alerts"."status" = 'pending';--> statement-breakpoint
CREATE INDEX `alerts_ended_idx` ON `alerts` (`ended_at`) WHERE "alerts"."status" = 'ended';--> statement-breakpoint
CREATE INDEX `alerts_keep_asked_idx` ON `alerts` (`keep_asked_at`) WHERE "alerts"."status" IN ('active', 'paused') AND "alerts"."keep_asked_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `alert_matches_sent_idx` ON `alert_matches` (`alert_id`,`matched_at`) WHERE "alert_matches"."send_id" IS NOT NULL;