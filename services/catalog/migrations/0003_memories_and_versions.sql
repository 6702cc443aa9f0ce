CREATE TABLE `memories` (
	`id` varchar(40) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`memory_store_id` varchar(40) NOT NULL,
	`path` varbinary(1024) NOT NULL,
	`content` mediumtext NOT NULL,
	`content_sha256` char(64) NOT NULL,
	`content_size_bytes` int NOT NULL,
	`memory_version_id` varchar(40) NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `memories_id` PRIMARY KEY(`id`),
	CONSTRAINT `memories_store_path` UNIQUE(`memory_store_id`,`path`)
);
--> statement-breakpoint
CREATE TABLE `memory_versions` (
	`id` varchar(40) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`memory_store_id` varchar(40) NOT NULL,
	`memory_id` varchar(40) NOT NULL,
	`operation` varchar(16) NOT NULL,
	`path` varbinary(1024),
	`content` mediumtext,
	`content_sha256` char(64),
	`content_size_bytes` int,
	`created_by_type` varchar(32),
	`created_by_id` varchar(64),
	`created_at` datetime(3) NOT NULL,
	`redacted_at` datetime(3),
	`redacted_by_type` varchar(32),
	`redacted_by_id` varchar(64),
	CONSTRAINT `memory_versions_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE INDEX `memory_versions_store_created` ON `memory_versions` (`memory_store_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `memory_versions_memory_created` ON `memory_versions` (`memory_id`,`created_at`,`id`);