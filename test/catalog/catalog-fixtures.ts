import { apiClient } from '../support/api';
import type { Stack } from '../support/stack';

/** Two unrelated tenants with a read-write key each: what every cross-tenant check needs. */
export async function twoTenants(stack: Stack) {
  const mine = await stack.createKey();
  const theirs = await stack.createKey();
  return { api: apiClient(stack.url, mine.secret), other: apiClient(stack.url, theirs.secret), mine, theirs };
}

export const RFC3339_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const idPattern = (prefix: string) => new RegExp(`^${prefix}[0-9A-Za-z]{24}$`);
