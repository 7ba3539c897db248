import type { FastifyReply } from 'fastify';

/**
 * A photo is served to be shown, never run. Should a browser ever open one
 * as a page (a polyglot that slipped through, a type it guessed), the policy
 * lets it load nothing and run nothing (`sandbox`: no script, no forms, an
 * opaque origin), and no other site may frame it. An image needs none of the
 * app's sources to be displayed. `inline` asks for it to be shown rather than
 * saved, and names no file.
 */
export const PHOTO_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** The photo's headers; the app's own policy (http/security-headers.ts) leaves a policy a route set alone. */
export function markAsPhoto(reply: FastifyReply): FastifyReply {
  return reply.header('content-disposition', 'inline').header('content-security-policy', PHOTO_CONTENT_SECURITY_POLICY);
}
