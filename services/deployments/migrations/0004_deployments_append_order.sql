ALTER TABLE `deployments` DROP PRIMARY KEY, ADD `seq` bigint unsigned AUTO_INCREMENT NOT NULL FIRST, ADD PRIMARY KEY(`seq`), ADD CONSTRAINT `deployments_id` UNIQUE(`id`);
