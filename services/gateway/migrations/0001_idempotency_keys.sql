CREATE TABLE `idempotency_keys` (
	`organization_id` varchar(64) NOT NULL,
	`workspace_id` varchar(64) NOT NULL,
	`key_hash` varchar(64) NOT NULL,
	`request_hash` varchar(64) NOT NULL,
	`claim_id` varchar(40) NOT NULL,
	`status` smallint,
	`response_headers` text,
	`response_body` mediumtext,
	`created_at` datetime(3) NOT NULL,
	`locked_until` datetime(3) NOT NULL,
	CONSTRAINT `idempotency_keys_key` PRIMARY KEY(`organization_id`,`workspace_id`,`key_hash`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_at` ON `idempotency_keys` (`created_at`);