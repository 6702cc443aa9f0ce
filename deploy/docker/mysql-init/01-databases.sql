-- Local docker-compose only. Runs once, when the MySQL data volume is empty.
-- One database per service (each service owns its own) and one application user limited to
-- them, as in production; the services never connect as root.
CREATE DATABASE IF NOT EXISTS agents_gateway;
CREATE DATABASE IF NOT EXISTS agents_deployments;
CREATE DATABASE IF NOT EXISTS agents_vaults;
CREATE DATABASE IF NOT EXISTS agents_catalog;
CREATE DATABASE IF NOT EXISTS agents_scheduler;

CREATE USER IF NOT EXISTS 'agents'@'%' IDENTIFIED BY 'agents-dev-password';
GRANT ALL PRIVILEGES ON `agents\_%`.* TO 'agents'@'%';
