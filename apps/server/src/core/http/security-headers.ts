/**
 * The security headers of every answer: helmet's (Content-Security-Policy, no framing, no
 * sniffing, no referrer) plus Permissions-Policy, and the ones an answer written straight on the
 * socket carries (a request Node could not parse).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';

/**
 * The web app's Content-Security-Policy: scripts only from the app itself (no inline scripts);
 * styles also inline (the UI library writes its styles at run time); media, workers and images
 * from the app, with blob: and data: for recordings and previews, plus the two outside places
 * images come from: WhatsApp's and Instagram's servers (contact pictures) and Google's static maps (locations).
 * The socket is the app's own origin ('self' covers ws: and wss: there). No framing, no plugins.
 */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  // Profile pictures come from WhatsApp's and Instagram's CDNs.
  imgSrc: ["'self'", 'data:', 'blob:', 'https://*.whatsapp.net', 'https://*.cdninstagram.com', 'https://*.fbcdn.net', 'https://maps.googleapis.com'],
  mediaSrc: ["'self'", 'blob:', 'data:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'", 'data:'],
  workerSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  upgradeInsecureRequests: null,
};
/**
 * The browser features a page of ours may use: the microphone for the app itself (voice notes are
 * recorded in the browser) and fullscreen (videos); everything else is off, for the app and any
 * frame in it (the Typebot frame included). Only features Chromium knows: an unknown name is a
 * console error on every page.
 */
export const PERMISSIONS_POLICY = [
  'microphone=(self)',
  'fullscreen=(self)',
  ...['camera', 'geolocation', 'payment', 'usb', 'serial', 'hid', 'midi', 'display-capture', 'accelerometer', 'gyroscope', 'magnetometer', 'xr-spatial-tracking', 'browsing-topics'].map(
    (feature) => `${feature}=()`,
  ),
].join(', ');
/** The headers of an answer written straight on the socket, for a request Node could not parse. */
export const PARSER_ERROR_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'SAMEORIGIN',
  'Referrer-Policy': 'no-referrer',
  'Permissions-Policy': PERMISSIONS_POLICY,
};
/**
 * Helmet's headers on every answer, from one middleware built once (the Fastify plugin built it
 * again for every request, parsing the policy each time). `frameOrigin`: the Typebot server the
 * /ZDGChatbot page frames, allowed in frame-src.
 */
export function securityHeaders(frameOrigin: () => string): (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void {
  const helmetHeaders = helmet({
    contentSecurityPolicy: { directives: { ...CSP_DIRECTIVES, frameSrc: ["'self'", () => frameOrigin() || "'self'"] } },
    hsts: false,
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });
  return (request, reply, done) => {
    reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
    helmetHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  };
}
