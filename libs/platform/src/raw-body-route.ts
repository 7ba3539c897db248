/**
 * Route config flag (`@RouteConfig({ [RAW_BODY_ROUTE]: true })`) of a route
 * that takes a file as its raw body, whatever its type: the embedded photo
 * upload. media-svc's body parser hands such a route the unread stream, and
 * the gateway's JSON-only rule lets it through.
 */
export const RAW_BODY_ROUTE = 'vaultRawUpload';

/** Whether Fastify's route options (`request.routeOptions.config`) carry the flag. */
export function isRawBodyRoute(routeConfig: unknown): boolean {
  return (routeConfig as Record<string, unknown> | undefined)?.[RAW_BODY_ROUTE] === true;
}
