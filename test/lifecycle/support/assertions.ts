import { expect } from 'bun:test';
import type { ApiResponse } from '../../support/api';

/** The error envelope, exactly, with its status and the parts its message must name. */
export function expectError(res: ApiResponse, status: number, type: string, messageParts: string[] = []) {
  if (res.status !== status) console.error(JSON.stringify(res.body));
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ type: 'error', error: { type, message: expect.any(String) }, request_id: res.headers.get('request-id') });
  for (const part of messageParts) expect(res.body.error.message).toContain(part);
}

export function expectOk<T = any>(res: ApiResponse<T>): T {
  if (res.status !== 200) console.error(JSON.stringify(res.body));
  expect(res.status).toBe(200);
  return res.body;
}
