CREATE TABLE `api_keys` (
	`id` varchar(40) NOT NULL,
	`secret_hash` varchar(64) NOT NULL,
	`hint` varchar(8) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`scope` varchar(16) NOT NULL,
	`name` varchar(256),
	`created_at` datetime(3) NOT NULL,
	`revoked_at` datetime(3),
	CONSTRAINT `api_keys_id` PRIMARY KEY(`id`),
	CONSTRAINT `api_keys_secret_hash_unique` UNIQUE(`secret_hash`)
);
--> statement-breakpoint
CREATE INDEX `api_keys_tenant` ON `api_keys` (`organization_id`,`workspace_id`);