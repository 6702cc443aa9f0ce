/**
 * Lists and re-drives the events a service's outbox relay parked in its dead-letter table
 * (shared/bus/outbox-relay.ts). Run it where the service runs, with the service's settings:
 *   bun run outbox -- list --service deployments
 *   bun run outbox -- redrive evt_… --service deployments
 *   bun run outbox -- redrive --all --service vaults
 */
import type { TSchema } from '@sinclair/typebox';
import type { OutboxDeadLetterTable, OutboxTable } from '@shared/db/outbox-table';
import { runOutboxCommand } from '@shared/service-host/outbox-command';
import { CatalogConfigSchema } from '../../services/catalog/src/config';
import * as catalog from '../../services/catalog/src/db/schema';
import { DeploymentsConfigSchema } from '../../services/deployments/src/config';
import * as deployments from '../../services/deployments/src/db/schema';
import { VaultsConfigSchema } from '../../services/vaults/src/config';
import * as vaults from '../../services/vaults/src/db/schema';

const service = (databaseName: TSchema, schema: { outbox: OutboxTable; outboxDeadLetters: OutboxDeadLetterTable }) => ({
  databaseName,
  tables: { outbox: schema.outbox, deadLetters: schema.outboxDeadLetters },
});

try {
  process.exit(
    await runOutboxCommand(process.argv.slice(2), {
      services: {
        deployments: service(DeploymentsConfigSchema.DATABASE_NAME, deployments),
        vaults: service(VaultsConfigSchema.DATABASE_NAME, vaults),
        catalog: service(CatalogConfigSchema.DATABASE_NAME, catalog),
      },
    }),
  );
} catch (err) {
  process.stderr.write(`outbox: ${(err as Error).message}\n`);
  process.exit(1);
}
