import type { Tenant } from '@shared/schema/tenant';

/**
 * The documented local-development key (README). It works only when ALLOW_DEV_KEY is on, which
 * defaults to off in production, and start-up fails if production turns it on.
 */
export const DEVELOPMENT_API_KEY = 'sk-agents-development-key-not-for-production';
export const DEVELOPMENT_TENANT: Tenant = {
  organization_id: 'org_development',
  workspace_id: 'wrkspc_development',
  scope: 'read_write',
  key_id: 'key_development',
};
