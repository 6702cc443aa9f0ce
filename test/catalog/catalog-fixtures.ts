import { expect } from 'bun:test';
import { apiClient, type ApiClient, type ApiResponse } from '../support/api';
import type { Stack } from '../support/stack';

/** Two unrelated tenants with a read-write key each: what every cross-tenant check needs. */
export async function twoTenants(stack: Stack) {
  const mine = await stack.createKey();
  const theirs = await stack.createKey();
  return { api: apiClient(stack.url, mine.secret), other: apiClient(stack.url, theirs.secret), mine, theirs };
}

export function expectError(response: ApiResponse, status: number, type: string, messagePart?: string) {
  expect({ status: response.status, type: response.body?.error?.type }).toEqual({ status, type });
  if (messagePart) expect(response.body.error.message).toContain(messagePart);
}

export function expectOk<T = any>(response: ApiResponse<T>): T {
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

export const RFC3339_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const idPattern = (prefix: string) => new RegExp(`^${prefix}[0-9A-Za-z]{24}$`);

/** Every page of a list, following `next_page` with the same limit and filters. */
export async function allPages(api: ApiClient, path: string, query: Record<string, string> = {}) {
  const pages: any[][] = [];
  let page: string | undefined;
  do {
    const body = expectOk(await api('GET', path, { query: { ...query, page } }));
    pages.push(body.data);
    page = body.next_page ?? undefined;
  } while (page);
  return pages;
}
