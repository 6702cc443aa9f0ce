import { Elysia } from 'elysia';
import type { GatewayDeps } from '../service';
import { createGuard } from './guard';
import { checkPathIds } from './path-id';
import type { Route } from './route';

/** One resource's routes (modules/<resource>/): its table, which the document reads, and the Elysia plugin serving it. */
export type ResourceModule = ReturnType<typeof resourceModule>;

/**
 * The Elysia plugin of one resource, from its route table: every route behind the guard, every
 * id path parameter checked for its kind's exact form before the handler runs.
 */
export function resourceModule(resource: string, deps: GatewayDeps, routes: readonly Route[]) {
  const plugin = new Elysia({ name: `module-${resource}` }).use(createGuard(deps)).onBeforeHandle(checkPathIds);
  for (const { method, path, handle } of routes) {
    // Destructured here, where Elysia reads a handler's parameters to decide what to prepare.
    plugin.route(method, path, ({ call, url, params, body, request }) => handle({ call, url, params, body, request }));
  }
  return { resource, routes, plugin };
}
