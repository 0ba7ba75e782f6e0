/**
 * Fetches a file from an address a user typed, for the server to send on. Guarded against
 * server-side request forgery: every connection (the first and each redirect's) goes through an
 * agent that checks the address DNS gave, after resolution, and refuses loopback, private,
 * link-local and unspecified addresses; `allowPrivate` lets loopback and private ones through,
 * never IPv4 link-local or a metadata address. A size limit,
 * an overall time limit and at most MAX_REDIRECTS redirects.
 */
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { AppError } from '../errors.js';

export const MAX_REDIRECTS = 5;
/**
 * IPv4 link-local, where cloud metadata services answer: refused even when private addresses are
 * allowed. The agent matches every entry against every address and logs an error for an entry of
 * the other family, so the list holds IPv4 only; IPv6 link-local is refused unless private
 * addresses are allowed.
 */
const ALWAYS_DENIED = ['169.254.0.0/16'];

export type FetchedFile = { data: Buffer; contentType: string | undefined; filename: string };

export type FetchUrlOptions = { allowPrivate: boolean; maxBytes: number; timeoutMs: number };

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError('ERR_MEDIA_URL_INVALID');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('ERR_MEDIA_URL_INVALID');
  if (url.username || url.password) throw new AppError('ERR_MEDIA_URL_INVALID');
  return url;
}

function filenameOf(url: URL): string {
  const base = path.posix.basename(decodeURIComponent(url.pathname));
  return base && base !== '/' ? base.slice(0, 200) : 'file';
}

/** The agent's refusal names the address it would not reach. */
function isRefusedAddress(error: unknown): boolean {
  return error instanceof Error && /is not allowed/.test(error.message);
}

type Hop = { status: number; location: string | undefined; contentType: string | undefined; data: Buffer | undefined };

function requestOnce(url: URL, options: FetchUrlOptions, signal: AbortSignal): Promise<Hop> {
  const agentOptions = { allowPrivateIPAddress: options.allowPrivate, allowMetaIPAddress: false, denyIPAddressList: ALWAYS_DENIED };
  const agent = url.protocol === 'https:' ? new RequestFilteringHttpsAgent(agentOptions) : new RequestFilteringHttpAgent(agentOptions);
  const get = url.protocol === 'https:' ? https.get : http.get;
  return new Promise<Hop>((resolve, reject) => {
    const request = get(url, { agent, signal, headers: { 'user-agent': 'ZapDesk media fetch', accept: '*/*' } }, (response) => {
      const status = response.statusCode ?? 0;
      const contentType = response.headers['content-type'];
      if (status >= 300 && status < 400) {
        response.resume();
        resolve({ status, location: response.headers.location, contentType, data: undefined });
        return;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        resolve({ status, location: undefined, contentType, data: undefined });
        return;
      }
      const declared = Number(response.headers['content-length'] ?? 0);
      if (declared > options.maxBytes) {
        response.destroy();
        reject(new AppError('ERR_MEDIA_TOO_LARGE'));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) {
          response.destroy();
          reject(new AppError('ERR_MEDIA_TOO_LARGE'));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve({ status, location: undefined, contentType, data: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

export async function fetchUrl(text: string, options: FetchUrlOptions): Promise<FetchedFile> {
  let url = parseUrl(text);
  const signal = AbortSignal.timeout(options.timeoutMs);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    let answer: Hop;
    try {
      answer = await requestOnce(url, options, signal);
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (isRefusedAddress(error)) throw new AppError('ERR_MEDIA_URL_FORBIDDEN');
      if (signal.aborted) throw new AppError('ERR_MEDIA_URL_TIMEOUT');
      throw new AppError('ERR_MEDIA_URL_FAILED');
    }
    if (answer.data) return { data: answer.data, contentType: answer.contentType, filename: filenameOf(url) };
    if (!answer.location) throw new AppError('ERR_MEDIA_URL_FAILED', { message: `The address answered HTTP ${answer.status}.` });
    // Each hop is checked like the first: a redirect to a private address is refused too.
    url = parseUrl(new URL(answer.location, url).toString());
  }
  throw new AppError('ERR_MEDIA_URL_FAILED', { message: `More than ${MAX_REDIRECTS} redirects.` });
}
