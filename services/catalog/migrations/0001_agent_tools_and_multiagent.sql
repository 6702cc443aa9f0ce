-- Agents gain tools, MCP servers, skills and a multiagent configuration. Versions stored before this hold none: the three lists are added as [] (a default the column then drops, as the schema declares none), multiagent as NULL. DEFAULT (expression) and DROP DEFAULT suit MySQL 8.0.13+ and MariaDB 10.2+.
ALTER TABLE `agent_versions` ADD `tools` json NOT NULL DEFAULT ('[]');--> statement-breakpoint
ALTER TABLE `agent_versions` ADD `mcp_servers` json NOT NULL DEFAULT ('[]');--> statement-breakpoint
ALTER TABLE `agent_versions` ADD `skills` json NOT NULL DEFAULT ('[]');--> statement-breakpoint
ALTER TABLE `agent_versions` ALTER COLUMN `tools` DROP DEFAULT;--> statement-breakpoint
ALTER TABLE `agent_versions` ALTER COLUMN `mcp_servers` DROP DEFAULT;--> statement-breakpoint
ALTER TABLE `agent_versions` ALTER COLUMN `skills` DROP DEFAULT;--> statement-breakpoint
ALTER TABLE `agent_versions` ADD `multiagent` json;
