CREATE TABLE `skill_versions` (
	`id` varchar(40) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`skill_id` varchar(40) NOT NULL,
	`name` varchar(64) NOT NULL,
	`description` text NOT NULL,
	`archive` mediumblob NOT NULL,
	`created_at` datetime(3) NOT NULL,
	CONSTRAINT `skill_versions_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `skills` (
	`id` varchar(40) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`display_name` varchar(255) NOT NULL,
	`name` varchar(64) NOT NULL,
	`latest_version_id` varchar(40) NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `skills_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE INDEX `skill_versions_skill_created` ON `skill_versions` (`skill_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `skills_tenant_created` ON `skills` (`organization_id`,`workspace_id`,`created_at`,`id`);