/**
 * What a simulated phone holds, kept so that it survives a restart of the server as a real phone
 * would: the messages it received from the product (the outbox a test reads), their delivery
 * state, the read receipts, each chat's history and the calls it got. It is an append-only log of JSON lines,
 * replayed at start and compacted when it grows: a file on a single node, rows in the database
 * in the cluster mode (a session taken over by another node goes on with the same phone).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TSimulatorCallItem, TSimulatorOutboxItem } from '@zapdesk/shared/simulator';
import type { ChatAddress, InboundMessage } from '../channel.js';

const OUTBOX_LIMIT = 1000;
const HISTORY_LIMIT = 500;
/** Ids of messages received, remembered past the outbox limit so a repeated send stays one message. */
const RECEIVED_IDS_LIMIT = 20_000;
const COMPACT_AFTER_LINES = 50_000;
const CALLS_LIMIT = 1000;

export function chatKey(chat: ChatAddress): string {
  return chat.kind === 'person' ? chat.number : `group:${chat.groupId}`;
}

/** A group the simulated phone belongs to, as the phone holds it. */
export type SimGroup = { id: string; subject: string; description: string; announce: boolean; restrict: boolean; participants: { number: string; admin: boolean }[] };

/** A history entry as written to the file: no media bytes, the time as ISO text. */
type StoredHistory = Omit<InboundMessage, 'media' | 'timestamp'> & { timestamp: string };

type LogLine =
  | { t: 'out'; item: TSimulatorOutboxItem }
  | { t: 'ack'; id: string; ack: number }
  | { t: 'hist'; m: StoredHistory }
  | { t: 'edit'; id: string; body: string }
  | { t: 'read'; ids: string[] }
  | { t: 'group'; g: SimGroup }
  | { t: 'call'; c: TSimulatorCallItem }
  | { t: 'ids'; ids: [id: string, sentAt: string][] };

function toStored(message: InboundMessage): StoredHistory {
  const { media: _media, timestamp, ...rest } = message;
  return { ...rest, timestamp: timestamp.toISOString() };
}

function fromStored(stored: StoredHistory): InboundMessage {
  return { ...stored, timestamp: new Date(stored.timestamp) };
}

/** Where the log is kept when not in a file: read once at start, then written in order. */
export type PhoneLog = {
  lines(): Promise<string[]>;
  append(line: string): Promise<void>;
  /** Replaces the whole log (compaction). */
  replace(lines: string[]): Promise<void>;
};

export class SimulatorPhone {
  readonly #file: string | undefined;
  readonly #log: PhoneLog | undefined;
  /** The log's writes, one after the other; settles once what was written so far is stored. */
  #writes: Promise<void> = Promise.resolve();
  #last: Promise<void> = Promise.resolve();
  #loaded = false;
  readonly #outbox: TSimulatorOutboxItem[] = [];
  /** Id -> when it arrived, of every message received (bounded). */
  readonly #received = new Map<string, string>();
  readonly #history = new Map<string, InboundMessage[]>();
  readonly readReceipts: string[] = [];
  readonly #groups = new Map<string, SimGroup>();
  readonly #calls = new Map<string, TSimulatorCallItem>();
  #lines = 0;
  /**
   * The log is compacted when it passes this many lines: twice what the last compaction left, at
   * least COMPACT_AFTER_LINES. A state larger than the bare limit would otherwise be rewritten
   * whole at every write.
   */
  #compactAt: number;
  readonly #compactAfter: number;

  /** A file path, a log kept elsewhere (read by load()), or undefined: in memory only; `compactAfterLines`: COMPACT_AFTER_LINES. */
  constructor(place: string | PhoneLog | undefined, options: { compactAfterLines?: number } = {}) {
    this.#compactAfter = options.compactAfterLines ?? COMPACT_AFTER_LINES;
    this.#compactAt = this.#compactAfter;
    if (typeof place !== 'string') {
      this.#log = place;
      return;
    }
    const file = place;
    this.#file = file;
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    if (fs.existsSync(file)) {
      const text = fs.readFileSync(file, 'utf8');
      // A last line cut short by a crash mid-write never happened: cut it off, or the next line
      // written would be glued to it and lost too.
      const complete = text.lastIndexOf('\n') + 1;
      if (complete < text.length) fs.truncateSync(file, Buffer.byteLength(text.slice(0, complete)));
      for (const line of text.slice(0, complete).split('\n')) {
        if (!line) continue;
        let parsed: LogLine;
        try {
          parsed = JSON.parse(line) as LogLine;
        } catch {
          continue;
        }
        this.#apply(parsed);
        this.#lines += 1;
      }
      if (this.#lines > this.#compactAt) this.#compact();
    }
  }

  /** Reads a log kept elsewhere (once); a file was read by the constructor. */
  async load(): Promise<void> {
    if (!this.#log || this.#loaded) return;
    this.#loaded = true;
    for (const text of await this.#log.lines()) {
      try {
        this.#apply(JSON.parse(text) as LogLine);
      } catch {
        continue;
      }
      this.#lines += 1;
    }
  }

  /** Settles once every change so far is stored (at once for a file, which is written synchronously). */
  flushed(): Promise<void> {
    return this.#last;
  }

  /** When the phone received the message of this id, if it did (a send repeated after a crash). */
  receivedAt(id: string): string | undefined {
    return this.#received.get(id);
  }

  outbox(): TSimulatorOutboxItem[] {
    return [...this.#outbox];
  }

  history(chat: ChatAddress): InboundMessage[] {
    return [...(this.#history.get(chatKey(chat)) ?? [])];
  }

  groups(): SimGroup[] {
    return [...this.#groups.values()].map((g) => structuredClone(g));
  }

  group(id: string): SimGroup | undefined {
    const g = this.#groups.get(id);
    return g && structuredClone(g);
  }

  /** Calls in the order they first rang. */
  calls(): TSimulatorCallItem[] {
    return [...this.#calls.values()].map((c) => ({ ...c }));
  }

  call(id: string): TSimulatorCallItem | undefined {
    const c = this.#calls.get(id);
    return c && { ...c };
  }

  /** Adds or replaces a call (its whole state). */
  saveCall(call: TSimulatorCallItem): void {
    this.#write({ t: 'call', c: call });
  }

  /** Adds or replaces a group (its whole state). */
  saveGroup(group: SimGroup): void {
    this.#write({ t: 'group', g: group });
  }

  receive(item: TSimulatorOutboxItem): void {
    this.#write({ t: 'out', item });
  }

  ack(id: string, ack: number): void {
    this.#write({ t: 'ack', id, ack });
  }

  /** Adds a message to its chat's history; a message tried again is already there and kept once. */
  remember(message: InboundMessage): void {
    if (this.#history.get(chatKey(message.chat))?.some((m) => m.providerId === message.providerId)) return;
    this.#write({ t: 'hist', m: toStored(message) });
  }

  edit(id: string, body: string): void {
    this.#write({ t: 'edit', id, body });
  }

  read(ids: string[]): void {
    if (ids.length) this.#write({ t: 'read', ids });
  }

  #write(line: LogLine): void {
    this.#apply(line);
    const log = this.#log;
    if (log) {
      this.#lines += 1;
      const text = JSON.stringify(line);
      const compact = this.#lines > this.#compactAt ? this.#compacted() : undefined;
      if (compact) this.#compactedTo(compact.length);
      const written = this.#writes.then(() => (compact ? log.replace(compact.map((l) => JSON.stringify(l))) : log.append(text)));
      // The next write goes on after a failed one; flushed() says whether the last one failed.
      this.#last = written;
      this.#writes = written.catch(() => undefined);
      return;
    }
    if (!this.#file) return;
    // Written before the caller goes on: once the product hears 'sent', the phone has it.
    fs.appendFileSync(this.#file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    this.#lines += 1;
    if (this.#lines > this.#compactAt) this.#compact();
  }

  #apply(line: LogLine): void {
    switch (line.t) {
      case 'out': {
        this.#outbox.push(line.item);
        if (this.#outbox.length > OUTBOX_LIMIT) this.#outbox.shift();
        if (line.item.kind !== 'delete') this.#addReceived(line.item.id, line.item.sentAt);
        return;
      }
      case 'ids':
        for (const [id, sentAt] of line.ids) this.#addReceived(id, sentAt);
        return;
      case 'ack': {
        const item = this.#outbox.find((o) => o.id === line.id && o.kind !== 'delete');
        if (item && item.ack < line.ack) item.ack = line.ack;
        return;
      }
      case 'hist': {
        const message = fromStored(line.m);
        const key = chatKey(message.chat);
        const list = this.#history.get(key) ?? [];
        list.push(message);
        if (list.length > HISTORY_LIMIT) list.shift();
        this.#history.set(key, list);
        return;
      }
      case 'edit': {
        for (const list of this.#history.values()) {
          const index = list.findIndex((m) => m.providerId === line.id);
          const old = list[index];
          if (old) list[index] = { ...old, body: line.body };
        }
        return;
      }
      case 'read':
        this.readReceipts.push(...line.ids);
        return;
      case 'group':
        this.#groups.set(line.g.id, line.g);
        return;
      case 'call': {
        this.#calls.set(line.c.id, line.c);
        if (this.#calls.size > CALLS_LIMIT) {
          const oldest = this.#calls.keys().next().value;
          if (oldest !== undefined) this.#calls.delete(oldest);
        }
        return;
      }
    }
  }

  #addReceived(id: string, sentAt: string): void {
    this.#received.set(id, sentAt);
    if (this.#received.size > RECEIVED_IDS_LIMIT) {
      const oldest = this.#received.keys().next().value;
      if (oldest !== undefined) this.#received.delete(oldest);
    }
  }

  /** Rewrites the log as the state it leads to, through a temporary file renamed over it. */
  #compact(): void {
    if (!this.#file) return;
    const lines = this.#compacted();
    const temp = `${this.#file}.tmp`;
    fs.writeFileSync(temp, lines.map((l) => JSON.stringify(l)).join('\n') + '\n', { mode: 0o600 });
    fs.renameSync(temp, this.#file);
    this.#compactedTo(lines.length);
  }

  #compactedTo(lines: number): void {
    this.#lines = lines;
    this.#compactAt = Math.max(this.#compactAfter, 2 * lines);
  }

  /** The log as the lines that lead to the state it holds now. */
  #compacted(): LogLine[] {
    return [
      { t: 'ids', ids: [...this.#received] },
      ...this.#outbox.map((item): LogLine => ({ t: 'out', item })),
      ...[...this.#history.values()].flat().map((m): LogLine => ({ t: 'hist', m: toStored(m) })),
      ...[...this.#groups.values()].map((g): LogLine => ({ t: 'group', g })),
      ...[...this.#calls.values()].map((c): LogLine => ({ t: 'call', c })),
      ...(this.readReceipts.length ? [{ t: 'read', ids: this.readReceipts.slice(-RECEIVED_IDS_LIMIT) } as LogLine] : []),
    ];
  }
}
