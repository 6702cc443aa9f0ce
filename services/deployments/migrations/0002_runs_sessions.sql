CREATE TABLE `deployment_runs` (
	`id` varchar(40) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`deployment_id` varchar(40) NOT NULL,
	`agent_id` varchar(128) NOT NULL,
	`agent_version` int NOT NULL,
	`trigger_type` varchar(16) NOT NULL,
	`scheduled_at` datetime(3),
	`session_id` varchar(40),
	`error_type` varchar(64),
	`error_message` text,
	`created_at` datetime(3) NOT NULL,
	CONSTRAINT `deployment_runs_id` PRIMARY KEY(`id`),
	CONSTRAINT `deployment_runs_occurrence` UNIQUE(`deployment_id`,`scheduled_at`)
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` varchar(40) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`deployment_id` varchar(40),
	`agent_id` varchar(128) NOT NULL,
	`agent_version` int NOT NULL,
	`environment_id` varchar(128) NOT NULL,
	`vault_ids` json NOT NULL,
	`resources` json NOT NULL,
	`budget` json,
	`initial_events` json NOT NULL,
	`status` varchar(16) NOT NULL,
	`metadata` json NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	`archived_at` datetime(3),
	CONSTRAINT `sessions_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE INDEX `deployment_runs_tenant_created` ON `deployment_runs` (`organization_id`,`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `deployment_runs_tenant_deployment_created` ON `deployment_runs` (`organization_id`,`workspace_id`,`deployment_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_tenant_created` ON `sessions` (`organization_id`,`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_tenant_deployment_created` ON `sessions` (`organization_id`,`workspace_id`,`deployment_id`,`created_at`,`id`);