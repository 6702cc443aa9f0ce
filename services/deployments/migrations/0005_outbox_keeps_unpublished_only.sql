DELETE FROM `outbox` WHERE `published_at` IS NOT NULL;--> statement-breakpoint
DROP INDEX `outbox_unpublished` ON `outbox`;--> statement-breakpoint
ALTER TABLE `outbox` DROP COLUMN `published_at`;
