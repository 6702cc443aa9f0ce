import { Elysia } from 'elysia';
import type { GatewayDeps } from '../deps';
import { createGuard } from './guard';
import { checkPathIds } from './path-id';
import type { Route } from './route';

/** One resource's routes (modules/<resource>/): its table, which the document reads, and the Elysia plugin serving it. */
export type ResourceModule = ReturnType<typeof resourceModule>;

/**
 * The Elysia plugin of one resource, from its route table: every route behind the guard, every
 * id path parameter checked for its kind's exact form before the handler runs. A null reply
 * (a long poll that found nothing) is 204 No Content, as the document says and the SDK reads
 * it (null); a 200 with an empty body would reach the SDK as an empty string.
 */
export function resourceModule(resource: string, deps: GatewayDeps, routes: readonly Route[]) {
  const plugin = new Elysia({ name: `module-${resource}` }).use(createGuard(deps)).onBeforeHandle(checkPathIds);
  for (const { method, path, handle } of routes) {
    // Destructured here, where Elysia reads a handler's parameters to decide what to prepare.
    plugin.route(method, path, async ({ call, url, params, body, request, idempotency }) => {
      const reply = await handle({ call, url, params, body, request, idempotency });
      return reply === null ? new Response(null, { status: 204 }) : reply;
    });
  }
  return { resource, routes, plugin };
}
