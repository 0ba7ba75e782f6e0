import { describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../../channels/channel.js';
import { splitByChat } from './chat-groups.js';

const person = (number: string, providerId: string) => ({ message: { providerId, chat: { kind: 'person', number } } as InboundMessage });
const group = (groupId: string, providerId: string) => ({ message: { providerId, chat: { kind: 'group', groupId } } as InboundMessage });
const ids = (groups: { message: InboundMessage }[][]) => groups.map((g) => g.map((p) => p.message.providerId));

describe('splitByChat', () => {
  it("keeps each chat's messages in one group in arrival order, chats dealt round the groups by first appearance", () => {
    const batch = [person('1', 'a1'), person('2', 'b1'), person('1', 'a2'), group('1', 'g1'), person('3', 'c1'), person('4', 'd1'), person('2', 'b2'), person('5', 'e1'), group('1', 'g2')];
    // Chats in order: person 1, person 2, group 1 (a group and a person with the same digits are two chats), person 3, person 4, person 5.
    expect(ids(splitByChat(batch, 4))).toEqual([['a1', 'a2', 'd1'], ['b1', 'b2', 'e1'], ['g1', 'g2'], ['c1']]);
  });

  it('makes one group per chat when there are fewer chats than writers, and one group of everything with one writer', () => {
    const batch = [person('1', 'a1'), person('2', 'b1'), person('1', 'a2')];
    expect(ids(splitByChat(batch, 4))).toEqual([['a1', 'a2'], ['b1']]);
    expect(ids(splitByChat(batch, 1))).toEqual([['a1', 'b1', 'a2']]);
    expect(splitByChat([], 4)).toEqual([]);
  });
});
