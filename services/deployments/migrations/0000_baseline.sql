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
CREATE TABLE `deployment_secrets` (
	`deployment_id` varchar(40) NOT NULL,
	`resource_index` int NOT NULL,
	`sealed` text NOT NULL,
	CONSTRAINT `deployment_secrets_deployment_id_resource_index_pk` PRIMARY KEY(`deployment_id`,`resource_index`)
);
--> statement-breakpoint
CREATE TABLE `deployments` (
	`id` varchar(40) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`name` varchar(256) NOT NULL,
	`description` text,
	`agent_id` varchar(128) NOT NULL,
	`agent_version` int NOT NULL,
	`environment_id` varchar(128) NOT NULL,
	`vault_ids` json NOT NULL,
	`initial_events` json NOT NULL,
	`resources` json NOT NULL,
	`metadata` json NOT NULL,
	`schedule_expression` varchar(256),
	`schedule_timezone` varchar(64),
	`last_run_at` datetime(3),
	`status` varchar(16) NOT NULL,
	`paused_reason` json,
	`budget` json,
	`revision` int NOT NULL,
	`data_key_id` varchar(32),
	`data_key_wrapped` varchar(255),
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	`archived_at` datetime(3),
	CONSTRAINT `deployments_id` PRIMARY KEY(`id`)
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
CREATE TABLE `session_memory_stores` (
	`session_id` varchar(40) NOT NULL,
	`memory_store_id` varchar(128) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`session_created_at` datetime(3) NOT NULL,
	CONSTRAINT `session_memory_stores_session_id_memory_store_id_pk` PRIMARY KEY(`session_id`,`memory_store_id`)
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
CREATE INDEX `deployments_tenant_created` ON `deployments` (`organization_id`,`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `deployments_tenant_live_created` ON `deployments` (`organization_id`,`workspace_id`,`archived_at`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `deployments_tenant_status_created` ON `deployments` (`organization_id`,`workspace_id`,`status`,`archived_at`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `deployments_tenant_agent_created` ON `deployments` (`organization_id`,`workspace_id`,`agent_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `outbox_unpublished` ON `outbox` (`published_at`,`id`);--> statement-breakpoint
CREATE INDEX `session_memory_stores_tenant_store_created` ON `session_memory_stores` (`organization_id`,`workspace_id`,`memory_store_id`,`session_created_at`,`session_id`);--> statement-breakpoint
CREATE INDEX `sessions_tenant_created` ON `sessions` (`organization_id`,`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_tenant_deployment_created` ON `sessions` (`organization_id`,`workspace_id`,`deployment_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_tenant_agent_created` ON `sessions` (`organization_id`,`workspace_id`,`agent_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_tenant_agent_version_created` ON `sessions` (`organization_id`,`workspace_id`,`agent_id`,`agent_version`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_tenant_status_created` ON `sessions` (`organization_id`,`workspace_id`,`status`,`created_at`,`id`);