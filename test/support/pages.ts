import type { ApiClient } from './api';
import { expectOk } from './expect';

/**
 * Every page of a list, following `next_page` with the same limit and filters; one array per
 * page, so a test can check both the walk (`.flat()`) and how it was split (`.length`).
 */
export async function allPages(api: ApiClient, path: string, query: Record<string, string | undefined> = {}): Promise<any[][]> {
  const pages: any[][] = [];
  let page = query.page;
  do {
    const body = expectOk(await api('GET', path, { query: { ...query, page } }), `page ${pages.length + 1} of ${path}`);
    pages.push(body.data);
    page = body.next_page ?? undefined;
    // A cursor that never ends is a bug of its own; stop rather than loop forever.
    if (pages.length > 1000) throw new Error(`${path}: more than 1000 pages`);
  } while (page);
  return pages;
}
