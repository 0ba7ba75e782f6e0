/**
 * The media fetch's guard against server-side request forgery: an IPv4 address written or
 * resolved in an IPv6 form (mapped, compatible, NAT64, 6to4) is judged as the IPv4 address it
 * carries, in both modes, so `ALLOW_PRIVATE_MEDIA_URLS=on` still never reaches link-local
 * (cloud metadata) and the default mode never reaches loopback or private networks.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchUrl } from './fetch-url.js';
import { guardedLookup } from './address-policy.js';

let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const fetchWith = (url: string, allowPrivate: boolean) => fetchUrl(url, { allowPrivate, maxBytes: 1024, timeoutMs: 3000 });

describe('addresses written in an IPv6 form', () => {
  it('never reaches IPv4 link-local, the unspecified address or the IPv6 metadata address, even with private addresses allowed', async () => {
    for (const host of [
      '[::ffff:169.254.1.1]',
      '[::ffff:a9fe:101]',
      '[::ffff:169.254.169.254]',
      '[64:ff9b::169.254.169.254]',
      '[64:ff9b:1::a9fe:a9fe]',
      '[::169.254.169.254]',
      '[2002:a9fe:a9fe::1]',
      '[::ffff:0.0.0.0]',
      '[fd00:ec2::254]',
      '[::]',
    ]) {
      await expect(fetchWith(`http://${host}/latest/meta-data/`, true), host).rejects.toMatchObject({ code: 'ERR_MEDIA_URL_FORBIDDEN' });
    }
  });

  it('never reaches loopback or private networks by default, whatever the form', async () => {
    for (const host of [
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[::127.0.0.1]',
      '[64:ff9b::127.0.0.1]',
      '[64:ff9b::10.0.0.1]',
      '[2002:c0a8:101::1]',
      '[::ffff:192.168.1.1]',
      '[::ffff:169.254.1.1]',
    ]) {
      await expect(fetchWith(`http://${host}:${port}/x.txt`, false), host).rejects.toMatchObject({ code: 'ERR_MEDIA_URL_FORBIDDEN' });
    }
  });

  it('reaches a loopback server written as a mapped address when private addresses are allowed', async () => {
    const file = await fetchWith(`http://[::ffff:127.0.0.1]:${port}/x.txt`, true);
    expect(file.data.toString()).toBe('hello');
  });
});

describe('addresses a name resolves to', () => {
  type Answer = { address: string; family: number }[];
  /** Resolves every name to the given addresses, as a DNS server under someone else's control could. */
  const resolvingTo =
    (answer: Answer) =>
    (_hostname: string, _options: object, callback: (error: NodeJS.ErrnoException | null, addresses: Answer) => void): void =>
      callback(null, answer);
  const lookupAll = (allowPrivate: boolean, answer: Answer) =>
    new Promise<Answer>((resolve, reject) => {
      guardedLookup(allowPrivate, resolvingTo(answer))('media.example', { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses as Answer)));
    });

  it('refuses a name that resolves to a mapped link-local address, even with private addresses allowed', async () => {
    await expect(lookupAll(true, [{ address: '::ffff:169.254.169.254', family: 6 }])).rejects.toMatchObject({ code: 'ERR_MEDIA_URL_FORBIDDEN' });
    await expect(
      lookupAll(true, [
        { address: '93.184.215.14', family: 4 },
        { address: '::ffff:a9fe:a9fe', family: 6 },
      ]),
    ).rejects.toMatchObject({ code: 'ERR_MEDIA_URL_FORBIDDEN' });
  });

  it('refuses a name that resolves to a mapped loopback address by default, and passes a public one', async () => {
    await expect(lookupAll(false, [{ address: '::ffff:127.0.0.1', family: 6 }])).rejects.toMatchObject({ code: 'ERR_MEDIA_URL_FORBIDDEN' });
    await expect(lookupAll(false, [{ address: '93.184.215.14', family: 4 }])).resolves.toEqual([{ address: '93.184.215.14', family: 4 }]);
    await expect(lookupAll(false, [{ address: '::ffff:93.184.215.14', family: 6 }])).resolves.toHaveLength(1);
  });
});
