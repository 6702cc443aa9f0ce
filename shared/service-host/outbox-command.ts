import { parseArgs } from 'node:util';
import type { TSchema } from '@sinclair/typebox';
import {
  listParkedEvents,
  parkedEventIds,
  redriveParkedEvents,
} from '../bus/outbox-dead-letters';
import { DatabaseConfig, loadConfig } from '../config/load-config';
import { connectDatabase } from '../db/connect';
import type { OutboxTables } from '../db/outbox-table';

export const OUTBOX_USAGE = `usage: bun run outbox -- <command> --service <name>
  list                      the service's parked events, oldest first (never their payloads)
  redrive <event_id>...     put these parked events back into the outbox; the running service publishes them
  redrive --all             the same for every parked event
Connects to the service's database: MYSQL_URL, MYSQL_PASSWORD and DATABASE_NAME as the service reads them.
`;

export interface OutboxCommandService {
  /** The service's DATABASE_NAME setting (its schema carries the default name). */
  databaseName: TSchema;
  tables: OutboxTables;
}

export interface OutboxCommandOptions {
  services: Record<string, OutboxCommandService>;
  env?: Record<string, string | undefined>;
  out?: (line: string) => void;
  err?: (line: string) => void;
}

/**
 * The operator's view of a service's dead-letter table (see shared/bus/outbox-relay.ts): list
 * parked events, and re-drive them once whatever refused them is fixed. Returns the exit code:
 * 0 done, 1 an event id that is not parked, 2 bad arguments.
 */
export async function runOutboxCommand(argv: string[], options: OutboxCommandOptions): Promise<number> {
  const out = options.out ?? ((line) => process.stdout.write(line + '\n'));
  const err = options.err ?? ((line) => process.stderr.write(line + '\n'));
  // `bun run outbox -- list` may pass the separator through; options come after it.
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { service: { type: 'string' }, all: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
    });
  } catch (e) {
    err(`outbox: ${(e as Error).message}\n${OUTBOX_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...ids] = positionals;
  if (values.help) {
    out(OUTBOX_USAGE);
    return 0;
  }
  const service = values.service === undefined ? undefined : options.services[values.service];
  if (!service) {
    err(`outbox: --service must be one of ${Object.keys(options.services).join(', ')}\n${OUTBOX_USAGE}`);
    return 2;
  }
  const valid =
    (command === 'list' && ids.length === 0 && !values.all) ||
    (command === 'redrive' && (values.all ? ids.length === 0 : ids.length > 0));
  if (!valid) {
    err(`outbox: ${command === undefined ? 'a command is required' : `bad use of '${command}'`}\n${OUTBOX_USAGE}`);
    return 2;
  }

  const config = loadConfig({ ...DatabaseConfig, DATABASE_NAME: service.databaseName }, options.env ?? process.env);
  const database = await connectDatabase({ ...config, MYSQL_POOL_SIZE: 1 }, config.DATABASE_NAME as string);
  try {
    if (command === 'list') {
      out(['event_id', 'subject', 'organization_id', 'workspace_id', 'attempts', 'created_at', 'parked_at', 'payload_bytes', 'last_error'].join('\t'));
      let afterId: number | undefined;
      let total = 0;
      for (;;) {
        const page = await listParkedEvents(database.db, service.tables, { limit: 500, afterId });
        for (const e of page) {
          out(
            [e.eventId, e.subject, e.organizationId ?? '-', e.workspaceId ?? '-', e.attempts, e.createdAt.toISOString(), e.parkedAt.toISOString(), e.payloadBytes, e.lastError.replace(/\s+/g, ' ')].join('\t'),
          );
        }
        total += page.length;
        if (page.length < 500) break;
        afterId = page[page.length - 1]!.id;
      }
      out(`${values.service}: ${total} parked event${total === 1 ? '' : 's'}`);
      return 0;
    }
    const wanted = values.all ? await parkedEventIds(database.db, service.tables) : ids;
    const redriven = await redriveParkedEvents(database.db, service.tables, wanted);
    for (const id of redriven) out(`redriven ${id}`);
    out(`${values.service}: ${redriven.length} event${redriven.length === 1 ? '' : 's'} back in the outbox`);
    const missing = values.all ? [] : wanted.filter((id) => !redriven.includes(id));
    for (const id of missing) err(`outbox: ${id} is not a parked event of ${values.service}`);
    return missing.length > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}
