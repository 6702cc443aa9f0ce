CREATE TABLE `session_secrets` (
	`session_id` varchar(40) NOT NULL,
	`resource_id` varchar(40) NOT NULL,
	`sealed` text NOT NULL,
	CONSTRAINT `session_secrets_session_id_resource_id_pk` PRIMARY KEY(`session_id`,`resource_id`)
);
--> statement-breakpoint
ALTER TABLE `sessions` ADD `agent` json;--> statement-breakpoint
ALTER TABLE `sessions` ADD `title` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `data_key_id` varchar(32);--> statement-breakpoint
ALTER TABLE `sessions` ADD `data_key_wrapped` varchar(255);