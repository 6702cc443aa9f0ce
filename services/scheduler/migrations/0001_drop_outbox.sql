-- The scheduler's outbox and dead-letter tables were created by its pre-0.3 migrations but nothing ever wrote to them; the baseline no longer has them. IF EXISTS: a database created from the baseline never had them.
DROP TABLE IF EXISTS `outbox`;--> statement-breakpoint
DROP TABLE IF EXISTS `outbox_dead_letters`;
