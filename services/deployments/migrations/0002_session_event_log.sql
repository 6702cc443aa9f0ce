CREATE TABLE `session_events` (
	`session_id` varchar(40) NOT NULL,
	`sequence` int NOT NULL,
	`id` varchar(40) NOT NULL,
	`type` varchar(64) NOT NULL,
	`processed_at` datetime(3) NOT NULL,
	`body` json NOT NULL,
	CONSTRAINT `session_events_session_id_sequence_pk` PRIMARY KEY(`session_id`,`sequence`),
	CONSTRAINT `session_events_id` UNIQUE(`id`)
);
