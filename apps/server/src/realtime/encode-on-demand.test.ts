/** A broadcast is encoded only when a socket of this node gets it, and then reaches it unchanged (real sockets, a real port). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppNamespace } from './connection.js';
import { encodeOnDemand } from './encode-on-demand.js';

let server: http.Server;
let io: Server;
let nsp: AppNamespace;
const sockets: Socket[] = [];

beforeAll(async () => {
  server = http.createServer();
  io = new Server(server, { path: '/socket.io', serveClient: false });
  nsp = io.of('/');
  encodeOnDemand(nsp.adapter);
  nsp.on('connection', (socket) => void socket.join(String(socket.handshake.auth.room)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  await io.close();
});

async function connect(room: string): Promise<Socket> {
  const { port } = server.address() as AddressInfo;
  const socket = connectSocket(`http://127.0.0.1:${port}`, { path: '/socket.io', auth: { room }, transports: ['websocket'], reconnection: false, forceNew: true });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  await vi.waitFor(() => expect(nsp.adapter.rooms.get(room)?.size).toBe(1));
  return socket;
}

/** A broadcast of `appMessage` to `rooms` (the payload's type does not matter here). */
function broadcast(rooms: string | string[], payload: unknown): void {
  (nsp.to(rooms) as unknown as { emit: (event: string, payload: unknown) => boolean }).emit('appMessage', payload);
}

describe('encodeOnDemand', () => {
  it('encodes a broadcast once for the sockets in its rooms, and not at all when none is', async () => {
    const reader = await connect('queue:1');
    await connect('queue:2');
    const encoder = (nsp.adapter as unknown as { encoder: { encode: (packet: unknown) => unknown[] } }).encoder;
    const encode = vi.spyOn(encoder, 'encode');
    const heard: unknown[] = [];
    reader.on('appMessage', (payload: unknown) => heard.push(payload));

    broadcast('queue:9', { body: 'nobody' });
    expect(encode).not.toHaveBeenCalled();

    const payload = { action: 'create', message: { body: 'olá', media: null }, n: [1, 2] };
    broadcast(['queue:1', 'queue:3'], payload);
    expect(encode).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(heard).toEqual([payload]));
    encode.mockRestore();
  });

  it('reaches every socket in the rooms, each once', async () => {
    const a = await connect('queue:5');
    const b = await connect('queue:6');
    const heard: string[] = [];
    a.on('appMessage', (payload: { body: string }) => heard.push(`a:${payload.body}`));
    b.on('appMessage', (payload: { body: string }) => heard.push(`b:${payload.body}`));
    broadcast(['queue:5', 'queue:6'], { body: 'x' });
    broadcast('queue:6', { body: 'y' });
    await vi.waitFor(() => expect(heard.sort()).toEqual(['a:x', 'b:x', 'b:y']));
  });
});
