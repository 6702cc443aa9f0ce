/**
 * Key material printed in this repository: the built-in development defaults and the values in
 * deploy/docker-compose.yml. Anyone can read them, so they seal nothing; development uses them
 * for convenience and production refuses them (as it refuses the development API key).
 * test/foundation/configuration.test.ts reads the compose file and README, so a key published
 * there without being listed here fails the build.
 */

/** Used when CURSOR_KEY is unset outside production. */
export const DEVELOPMENT_CURSOR_KEY = Buffer.alloc(32, 7).toString('base64');

/** Used when MASTER_KEYS is unset outside production. */
export const DEVELOPMENT_MASTER_KEYS = `dev1:${Buffer.alloc(32, 11).toString('base64')}`;

/** Used when SESSIONS_TOKEN_KEY is unset outside production. */
export const DEVELOPMENT_SESSIONS_TOKEN_KEY = Buffer.alloc(32, 13).toString('base64');

/** Compared by key bytes, so another kid or another base64 spelling of the same key is caught. */
const PUBLISHED_KEYS: readonly Buffer[] = [
  DEVELOPMENT_CURSOR_KEY,
  DEVELOPMENT_MASTER_KEYS.split(':')[1]!,
  DEVELOPMENT_SESSIONS_TOKEN_KEY,
  'ZGV2LW9ubHktY3Vyc29yLWtleS1kby1ub3QtdXNlISE=', // deploy/docker-compose.yml CURSOR_KEY
  'ZGV2LW9ubHktbWFzdGVyLWtleS1kby1ub3QtdXNlISE=', // deploy/docker-compose.yml MASTER_KEYS
  'ZGV2LW9ubHktc2Vzc2lvbnMtdG9rZW4tZG8tbm90ISE=', // deploy/docker-compose.yml SESSIONS_TOKEN_KEY
].map((encoded) => Buffer.from(encoded, 'base64'));

export const isPublishedKey = (key: Buffer): boolean => PUBLISHED_KEYS.some((published) => published.equals(key));
