CREATE TABLE `outbox` (
	`id` bigint unsigned AUTO_INCREMENT NOT NULL,
	`event_id` varchar(40) NOT NULL,
	`subject` varchar(200) NOT NULL,
	`payload` json NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`published_at` datetime(3),
	CONSTRAINT `outbox_id` PRIMARY KEY(`id`),
	CONSTRAINT `outbox_event_id_unique` UNIQUE(`event_id`)
);
--> statement-breakpoint
CREATE INDEX `outbox_unpublished` ON `outbox` (`published_at`,`id`);