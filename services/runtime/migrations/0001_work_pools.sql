CREATE TABLE `work_pollers` (
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`environment_id` varchar(128) NOT NULL,
	`worker_id` varchar(256) NOT NULL,
	`last_polled_at` datetime(3) NOT NULL,
	CONSTRAINT `work_pollers_worker` PRIMARY KEY(`organization_id`,`workspace_id`,`environment_id`,`worker_id`)
);
--> statement-breakpoint
ALTER TABLE `work_items` ADD `pool` varchar(16) DEFAULT 'self_hosted' NOT NULL;--> statement-breakpoint
CREATE INDEX `work_pollers_recent` ON `work_pollers` (`organization_id`,`workspace_id`,`environment_id`,`last_polled_at`);--> statement-breakpoint
CREATE INDEX `work_items_pool` ON `work_items` (`pool`,`state`,`organization_id`,`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `work_items_tenant_pool` ON `work_items` (`organization_id`,`workspace_id`,`pool`,`state`,`created_at`);