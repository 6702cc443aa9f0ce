CREATE TABLE `outbox_dead_letters` (
	`id` bigint unsigned AUTO_INCREMENT NOT NULL,
	`event_id` varchar(40) NOT NULL,
	`subject` varchar(200) NOT NULL,
	`payload` json NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`attempts` int unsigned NOT NULL,
	`last_error` varchar(1000) NOT NULL,
	`parked_at` datetime(3) NOT NULL,
	CONSTRAINT `outbox_dead_letters_id` PRIMARY KEY(`id`),
	CONSTRAINT `outbox_dead_letters_event_id_unique` UNIQUE(`event_id`)
);
--> statement-breakpoint
ALTER TABLE `outbox` ADD `attempts` int unsigned DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox` ADD `last_error` varchar(1000);--> statement-breakpoint
ALTER TABLE `outbox` ADD `next_attempt_at` datetime(3);