CREATE TABLE `session_leases` (
	`session_id` varchar(40) NOT NULL,
	`holder` varchar(128) NOT NULL,
	`expires_at` datetime(3) NOT NULL,
	CONSTRAINT `session_leases_session_id` PRIMARY KEY(`session_id`)
);
--> statement-breakpoint
CREATE TABLE `work_items` (
	`id` varchar(40) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`environment_id` varchar(128) NOT NULL,
	`session_id` varchar(40) NOT NULL,
	`state` varchar(16) NOT NULL,
	`metadata` json NOT NULL,
	`worker_id` varchar(256),
	`created_at` datetime(3) NOT NULL,
	`acknowledged_at` datetime(3),
	`started_at` datetime(3),
	`latest_heartbeat_at` datetime(3),
	`lease_expires_at` datetime(3),
	`stop_requested_at` datetime(3),
	`stopped_at` datetime(3),
	CONSTRAINT `work_items_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE INDEX `work_items_queue` ON `work_items` (`organization_id`,`workspace_id`,`environment_id`,`state`,`created_at`);--> statement-breakpoint
CREATE INDEX `work_items_session` ON `work_items` (`session_id`,`state`);