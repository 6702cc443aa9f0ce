import { causeChain } from '../errors/cause-chain';

/**
 * What a log line says about an error: its name, its codes and its message, then its causes.
 * Never a query's parameters: drizzle's DrizzleQueryError puts the statement and every parameter
 * in its message (whole bodies, sealed secrets, the hash of a presented API key), and mysql2's
 * errors carry `sql` with the values inlined. The database's own message can quote a value too
 * (`Duplicate entry '<value>' for key ...`), so its quoted part is masked; identifiers stay, in
 * backticks, and the code (ER_DUP_ENTRY) and the statement text with its placeholders say the rest.
 */
type ErrorDetails = Error & {
  code?: unknown;
  errno?: unknown;
  sqlState?: unknown;
  sqlMessage?: unknown;
  query?: unknown;
  params?: unknown;
};

/** Server errors whose quoted parts are names of schema objects, never values: kept whole. */
const QUOTES_IDENTIFIERS_ONLY = new Set([
  1049, // ER_BAD_DB_ERROR: Unknown database '<name>'
  1054, // ER_BAD_FIELD_ERROR: Unknown column '<name>' in '<clause>'
  1146, // ER_NO_SUCH_TABLE: Table '<db>.<name>' doesn't exist
]);

/** Statements are logged for the operation they name, not in full. */
const MAX_SQL_CHARS = 500;

/** What an error is logged as: the fields of a log line (LogFields), kept apart so logger.ts and this file do not import each other. */
type ErrorFields = Record<string, unknown>;

/** The error and its causes (as far as they are errors), each nested in the one it caused. */
export function describeError(error: Error): ErrorFields {
  const errors: Error[] = [];
  for (const e of causeChain(error)) {
    if (!(e instanceof Error)) break;
    errors.push(e);
  }
  return errors.reduceRight<ErrorFields | undefined>((cause, e) => ({ ...describeOne(e), ...(cause ? { cause } : {}) }), undefined)!;
}

function describeOne(error: Error): ErrorFields {
  const e = error as ErrorDetails;
  const out: ErrorFields = { name: error.name === 'Error' ? error.constructor.name : error.name };
  if (typeof e.code === 'string' || typeof e.code === 'number') out.code = e.code;
  if (typeof e.errno === 'number') out.errno = e.errno;
  if (typeof e.sqlState === 'string') out.sql_state = e.sqlState;
  if (typeof e.query === 'string' && 'params' in e) {
    out.message = 'query failed';
    // Statements are parameterised (`?`), so their text holds no value.
    out.sql = e.query.slice(0, MAX_SQL_CHARS);
  } else if (typeof e.sqlMessage === 'string' || typeof e.sqlState === 'string') {
    const message = typeof e.sqlMessage === 'string' ? e.sqlMessage : error.message;
    out.message = typeof e.errno === 'number' && QUOTES_IDENTIFIERS_ONLY.has(e.errno) ? message : maskQuotedValues(message);
  } else {
    out.message = error.message;
  }
  return out;
}

/**
 * Values are quoted with ' or " in server messages; a value may itself contain a quote, so
 * everything from the first quote to the last is masked rather than each pair.
 */
function maskQuotedValues(message: string): string {
  const first = message.search(/['"]/);
  if (first < 0) return message;
  const last = Math.max(message.lastIndexOf("'"), message.lastIndexOf('"'));
  return `${message.slice(0, first)}'…'${message.slice(last + 1)}`;
}
