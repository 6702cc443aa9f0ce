CREATE TABLE `agent_versions` (
	`agent_id` varchar(40) NOT NULL,
	`version` int NOT NULL,
	`name` varchar(256) NOT NULL,
	`description` text,
	`model` json NOT NULL,
	`system` mediumtext,
	`metadata` json NOT NULL,
	`execution_identity` json NOT NULL,
	`created_at` datetime(3) NOT NULL,
	CONSTRAINT `agent_versions_agent_id_version_pk` PRIMARY KEY(`agent_id`,`version`)
);
--> statement-breakpoint
CREATE TABLE `agents` (
	`id` varchar(40) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`latest_version` int NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	`archived_at` datetime(3),
	CONSTRAINT `agents_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `environments` (
	`id` varchar(40) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`name` varchar(256) NOT NULL,
	`description` text,
	`config` json NOT NULL,
	`metadata` json NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	`archived_at` datetime(3),
	CONSTRAINT `environments_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `file_chunks` (
	`file_id` varchar(40) NOT NULL,
	`seq` int NOT NULL,
	`data` mediumblob NOT NULL,
	CONSTRAINT `file_chunks_file_id_seq_pk` PRIMARY KEY(`file_id`,`seq`)
);
--> statement-breakpoint
CREATE TABLE `files` (
	`id` varchar(40) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`filename` varchar(255) NOT NULL,
	`mime_type` varchar(255) NOT NULL,
	`size_bytes` bigint unsigned NOT NULL,
	`chunk_count` int NOT NULL,
	`created_at` datetime(3) NOT NULL,
	CONSTRAINT `files_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `memory_stores` (
	`id` varchar(40) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`name` varchar(256) NOT NULL,
	`description` text NOT NULL,
	`metadata` json NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	`archived_at` datetime(3),
	CONSTRAINT `memory_stores_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
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
CREATE INDEX `agents_tenant_created` ON `agents` (`organization_id`,`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `environments_tenant_created` ON `environments` (`organization_id`,`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `files_tenant_created` ON `files` (`organization_id`,`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `memory_stores_tenant_created` ON `memory_stores` (`organization_id`,`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `outbox_unpublished` ON `outbox` (`published_at`,`id`);