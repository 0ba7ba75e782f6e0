/**
 * whaticket's frontend at the socket handshake: the token in the query of namespace /api, refused
 * as the main namespace refuses; the polling transport it falls back to; and a frontend served
 * from another origin (FRONTEND_URL) gets CORS for exactly that origin.
 */
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';
import { whaticketScreens } from '../test/whaticket-screens.js';

let t: TestApp;
let url: string;
let agent: { id: number; token: string };
const { screen, refusal, closeAll } = whaticketScreens(() => ({ t, url }));

beforeAll(async () => {
  t = await createTestApp();
  url = await t.listen();
  const a = await t.createUser({ name: 'Agent' });
  agent = { id: a.user.id, token: a.token };
});
afterAll(async () => {
  closeAll();
  await t.close();
});

describe('whaticket handshake', () => {
  it.each([
    ['no token (whaticket before login sends "null")', null],
    ['a garbage token', 'not-a-jwt'],
  ])('refuses %s with ERR_INVALID_TOKEN', async (_label, token) => {
    expect(await refusal(token)).toBe('ERR_INVALID_TOKEN');
  });

  it('reads the token from the query only on /api, and from auth only on the main namespace', async () => {
    const inAuth = connectSocket(`${url}/api`, { auth: { token: agent.token }, transports: ['websocket'], reconnection: false, forceNew: true });
    const refused = await new Promise<string>((resolve) => inAuth.once('connect_error', (error) => resolve(error.message)));
    inAuth.close();
    expect(refused).toBe('ERR_INVALID_TOKEN');
    const inQuery = connectSocket(url, { query: { token: agent.token }, transports: ['websocket'], reconnection: false, forceNew: true });
    const refusedToo = await new Promise<string>((resolve) => inQuery.once('connect_error', (error) => resolve(error.message)));
    inQuery.close();
    expect(refusedToo).toBe('ERR_INVALID_TOKEN');
  });

  it('serves the polling transport whaticket falls back to, with the same joins', async () => {
    const polling = await screen(agent.token, ['joinTickets', 'open'], ['polling']);
    expect(polling.socket.io.engine.transport.name).toBe('polling');
    expect(await refusal('not-a-jwt', ['polling'])).toBe('ERR_INVALID_TOKEN');
  });
});

describe('a whaticket frontend on another origin (FRONTEND_URL)', () => {
  it('gets CORS with credentials on the polling handshake for exactly that origin, nothing for others', async () => {
    const other = await createTestApp({ FRONTEND_URL: 'https://desk.example.com' });
    try {
      const base = await other.listen();
      const handshake = (origin: string) => fetch(`${base}/socket.io/?EIO=4&transport=polling`, { headers: { origin } });
      const allowed = await handshake('https://desk.example.com');
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://desk.example.com');
      expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
      const foreign = await handshake('https://evil.example.net');
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
      expect(foreign.headers.get('access-control-allow-credentials')).toBeNull();
    } finally {
      await other.close();
    }
  });
});
