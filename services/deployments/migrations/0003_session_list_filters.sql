CREATE TABLE `session_memory_stores` (
	`session_id` varchar(40) NOT NULL,
	`memory_store_id` varchar(128) NOT NULL,
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`session_created_at` datetime(3) NOT NULL,
	CONSTRAINT `session_memory_stores_session_id_memory_store_id_pk` PRIMARY KEY(`session_id`,`memory_store_id`)
);
--> statement-breakpoint
CREATE INDEX `session_memory_stores_tenant_store_created` ON `session_memory_stores` (`organization_id`,`workspace_id`,`memory_store_id`,`session_created_at`,`session_id`);--> statement-breakpoint
CREATE INDEX `sessions_tenant_agent_created` ON `sessions` (`organization_id`,`workspace_id`,`agent_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_tenant_agent_version_created` ON `sessions` (`organization_id`,`workspace_id`,`agent_id`,`agent_version`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_tenant_status_created` ON `sessions` (`organization_id`,`workspace_id`,`status`,`created_at`,`id`);--> statement-breakpoint
-- Backfill (hand-written): the memory stores of sessions created before this table existed.
-- JSON_TABLE exists on MySQL 8 and MariaDB 10.6+; INSERT IGNORE folds a store mounted twice.
INSERT IGNORE INTO `session_memory_stores` (`session_id`, `memory_store_id`, `organization_id`, `workspace_id`, `session_created_at`)
SELECT s.`id`, r.`memory_store_id`, s.`organization_id`, s.`workspace_id`, s.`created_at`
FROM `sessions` s,
  JSON_TABLE(s.`resources`, '$[*]' COLUMNS (`type` varchar(32) PATH '$.type', `memory_store_id` varchar(128) PATH '$.memory_store_id')) r
WHERE r.`type` = 'memory_store' AND r.`memory_store_id` IS NOT NULL;
