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
CREATE INDEX `deployments_tenant_created` ON `deployments` (`organization_id`,`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `deployments_tenant_live_created` ON `deployments` (`organization_id`,`workspace_id`,`archived_at`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `deployments_tenant_status_created` ON `deployments` (`organization_id`,`workspace_id`,`status`,`archived_at`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `deployments_tenant_agent_created` ON `deployments` (`organization_id`,`workspace_id`,`agent_id`,`created_at`,`id`);