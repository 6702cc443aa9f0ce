/**
 * Raised for anything the scheduler cannot honour: bad syntax, unsupported cron dialects,
 * unknown timezones, expressions that never fire. The message is written for API users and
 * is shown to them as is, so it says what is wrong without any field path prefix.
 */
export class CronSyntaxError extends Error {
  override readonly name = 'CronSyntaxError';
}
