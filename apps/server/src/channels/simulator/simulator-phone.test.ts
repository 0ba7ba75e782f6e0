/** The simulated phone keeps what it holds in a file under DATA_DIR, like a real phone keeps it through a restart. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import { SimulatorPhone } from './simulator-phone.js';

const dirs: string[] = [];
function stateFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-phone-'));
  dirs.push(dir);
  return path.join(dir, 'simulator', '1.jsonl');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function sent(id: string, body: string): TSimulatorOutboxItem {
  return { id, to: '5511999990000', kind: 'text', body, mimetype: null, filename: null, quotedId: null, ack: 1, sentAt: new Date().toISOString() };
}

describe('simulated phone state', () => {
  it('reads back, after a restart, what it received, the delivery state, read receipts, edits and each chat’s history', () => {
    const file = stateFile();
    const phone = new SimulatorPhone(file);
    phone.receive(sent('OUT-1', 'Olá'));
    phone.ack('OUT-1', 3);
    const inbound = {
      providerId: 'IN-1',
      chat: { kind: 'person' as const, number: '5511999990000' },
      sender: { number: '5511999990000' },
      fromMe: false,
      body: 'oi',
      timestamp: new Date('2026-11-20T10:00:00Z'),
    };
    phone.remember(inbound);
    // The same message tried again (its sender had no acknowledgement yet) is kept once.
    phone.remember({ ...inbound });
    phone.edit('IN-1', 'oi, tudo bem?');
    phone.read(['IN-1']);

    const again = new SimulatorPhone(file);
    expect(again.outbox()).toEqual([{ ...sent('OUT-1', 'Olá'), sentAt: phone.outbox()[0]?.sentAt, ack: 3 }]);
    expect(again.receivedAt('OUT-1')).toBeDefined();
    expect(again.readReceipts).toEqual(['IN-1']);
    const history = again.history({ kind: 'person', number: '5511999990000' });
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ providerId: 'IN-1', body: 'oi, tudo bem?', timestamp: new Date('2026-11-20T10:00:00Z') });
  });

  it('reads back, after a restart, the calls it got and which were rejected, in the order they first rang', () => {
    const file = stateFile();
    const phone = new SimulatorPhone(file);
    const ringing = { id: 'CALL-1', from: '5511999990000', groupId: null, video: false, status: 'ringing' as const, at: '2026-11-20T10:00:00.000Z' };
    phone.saveCall(ringing);
    phone.saveCall({ ...ringing, id: 'CALL-2', at: '2026-11-20T10:05:00.000Z' });
    phone.saveCall({ ...ringing, status: 'rejected' });

    expect(new SimulatorPhone(file).calls()).toEqual([
      { ...ringing, status: 'rejected' },
      { ...ringing, id: 'CALL-2', at: '2026-11-20T10:05:00.000Z' },
    ]);
  });

  it('is readable by the owner only', () => {
    const file = stateFile();
    new SimulatorPhone(file).receive(sent('OUT-1', 'Olá'));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });

  it('ignores a last line cut short by a crash mid-write', () => {
    const file = stateFile();
    new SimulatorPhone(file).receive(sent('OUT-1', 'Olá'));
    fs.appendFileSync(file, '{"t":"out","item":{"id":"OUT-2","to":"55');
    const again = new SimulatorPhone(file);
    expect(again.outbox().map((o) => o.id)).toEqual(['OUT-1']);
    again.receive(sent('OUT-3', 'Tchau'));
    expect(new SimulatorPhone(file).outbox().map((o) => o.id)).toEqual(['OUT-1', 'OUT-3']);
  });

  // 50,000 messages through the phone's state: seconds of work, more with both cores busy.
  it('compacts a log kept in the database once it has doubled, not at every write once its state is past the limit', async () => {
    const rows: string[] = [];
    let rewrites = 0;
    const log = {
      lines: async () => [...rows],
      append: async (line: string) => void rows.push(line),
      replace: async (lines: string[]) => {
        rewrites += 1;
        rows.splice(0, rows.length, ...lines);
      },
    };
    // The product's limit is 50,000 lines; a tenth of it asks the same of the log.
    const limit = 5_000;
    const phone = new SimulatorPhone(log, { compactAfterLines: limit });
    await phone.load();
    // 200 chats: a chat's history keeps its last 500 messages, the phone's state holds them all.
    const chat = (i: number) => ({ kind: 'person' as const, number: String(5511999990000 + (i % 200)) });
    const say = (i: number) => phone.remember({ providerId: `IN-${i}`, chat: chat(i), sender: { number: chat(i).number }, fromMe: false, body: `m${i}`, timestamp: new Date(1_800_000_000_000 + i) });
    // A state of limit + 1 messages: the log passes the limit and is compacted once.
    for (let i = 0; i <= limit; i += 1) say(i);
    await phone.flushed();
    expect(rewrites).toBe(1);
    // Each message after it is appended: the state is past the limit, but the log has not doubled.
    for (let i = limit + 1; i <= limit + 100; i += 1) say(i);
    await phone.flushed();
    expect(rewrites).toBe(1);
    expect(rows.length).toBeGreaterThan(limit + 100);

    const again = new SimulatorPhone(log, { compactAfterLines: limit });
    await again.load();
    const last = limit + 100;
    // The last message's chat holds every message whose number has the same remainder by 200.
    expect(again.history(chat(last))).toHaveLength(Math.floor(last / 200) + 1);
    expect(again.history(chat(last)).at(-1)).toMatchObject({ providerId: `IN-${last}`, body: `m${last}` });
    expect(again.history(chat(0))[0]).toMatchObject({ providerId: 'IN-0', body: 'm0' });
  });
});
