/**
 * Fetches a file from an address a user typed, for the server to send on. Guarded against
 * server-side request forgery: every connection (the first and each redirect's) is checked by
 * address-policy.ts, the host written as an address before connecting and a name on every
 * address DNS gives for it, and loopback, private, link-local and unspecified addresses are
 * refused (in any IPv6 form that carries them); `allowPrivate` lets loopback and private ones
 * through, never IPv4 link-local or a metadata address. A size limit, an overall time limit and
 * at most MAX_REDIRECTS redirects.
 */
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { AppError } from '../errors.js';
import { addressRefusal, guardedLookup, literalAddress, refusedAddressError } from './address-policy.js';

export const MAX_REDIRECTS = 5;

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

type Hop = { status: number; location: string | undefined; contentType: string | undefined; data: Buffer | undefined };

function requestOnce(url: URL, options: FetchUrlOptions, signal: AbortSignal): Promise<Hop> {
  // A host written as an address is connected to without a lookup: judged here. A name is
  // judged on what DNS answers, at connection time, so no second lookup can answer otherwise.
  const literal = literalAddress(url);
  if (literal !== undefined && addressRefusal(literal, options.allowPrivate)) return Promise.reject(refusedAddressError());
  const get = url.protocol === 'https:' ? https.get : http.get;
  return new Promise<Hop>((resolve, reject) => {
    const request = get(url, { agent: false, lookup: guardedLookup(options.allowPrivate), signal, headers: { 'user-agent': 'ZapDesk media fetch', accept: '*/*' } }, (response) => {
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
