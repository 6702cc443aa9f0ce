CREATE TABLE `outbox` (
	`id` bigint unsigned AUTO_INCREMENT NOT NULL,
	`event_id` varchar(40) NOT NULL,
	`subject` varchar(200) NOT NULL,
	`payload` json NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`published_at` datetime(3),
	`attempts` int unsigned NOT NULL DEFAULT 0,
	`last_error` varchar(1000),
	`next_attempt_at` datetime(3),
	CONSTRAINT `outbox_id` PRIMARY KEY(`id`),
	CONSTRAINT `outbox_event_id_unique` UNIQUE(`event_id`)
);
--> statement-breakpoint
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
CREATE TABLE `vault_credentials` (
	`id` varchar(40) NOT NULL,
	`vault_id` varchar(40) NOT NULL,
	`display_name` varchar(255),
	`kind` varchar(32) NOT NULL,
	`target` varchar(2048) NOT NULL,
	`auth` json NOT NULL,
	`metadata` json NOT NULL,
	`sealed_secret` mediumtext,
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	`archived_at` datetime(3),
	CONSTRAINT `vault_credentials_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `vaults` (
	`id` varchar(40) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`display_name` varchar(255) NOT NULL,
	`metadata` json NOT NULL,
	`data_key_id` varchar(32) NOT NULL,
	`wrapped_data_key` text NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	`archived_at` datetime(3),
	CONSTRAINT `vaults_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE INDEX `outbox_unpublished` ON `outbox` (`published_at`,`id`);--> statement-breakpoint
CREATE INDEX `vault_credentials_vault_created` ON `vault_credentials` (`vault_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `vaults_tenant_created` ON `vaults` (`organization_id`,`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `vaults_data_key_id` ON `vaults` (`data_key_id`,`id`);