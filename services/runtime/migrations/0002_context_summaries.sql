CREATE TABLE `context_summaries` (
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`session_id` varchar(40) NOT NULL,
	`span_start_id` varchar(40) NOT NULL,
	`summary` mediumtext NOT NULL,
	`created_at` datetime(3) NOT NULL,
	CONSTRAINT `context_summaries_span` PRIMARY KEY(`session_id`,`span_start_id`)
);
