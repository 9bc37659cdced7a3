/**
 * The route a request was answered by, for the request metrics: Astro's route pattern (`/article/[slug]`),
 * never the raw path, so the number of label values is the number of routes however many URLs visitors
 * try. The middleware writes it on the request's locals, which server.mjs handed to Astro and reads back
 * when the response is finished; the symbol's name is repeated there, keep both in step.
 */
import type { APIContext } from 'astro';

export const ROUTE_LABEL_SYMBOL = Symbol.for('agency.routeLabel');

export function noteRoutePattern(context: Pick<APIContext, 'locals' | 'routePattern'>) {
  Reflect.set(context.locals, ROUTE_LABEL_SYMBOL, context.routePattern);
}
