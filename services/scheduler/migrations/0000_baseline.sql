CREATE TABLE `schedules` (
	`deployment_id` varchar(64) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`expression` varchar(256),
	`timezone` varchar(64),
	`revision` int unsigned NOT NULL,
	`active` boolean NOT NULL,
	`next_occurrence_at` datetime(3),
	`next_fire_at` datetime(3),
	`claimed_by` varchar(128),
	`claim_until` datetime(3),
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `schedules_deployment_id` PRIMARY KEY(`deployment_id`)
);
--> statement-breakpoint
CREATE INDEX `schedules_due` ON `schedules` (`active`,`next_fire_at`);