/**
 * The simulated network's numbers and the groups a simulated phone belongs to: who exists, who
 * refuses being added, who is admin, and what a member may change.
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '../../core/errors.js';
import type { GroupChange, GroupCreated, GroupInfo, InboundMessage } from '../channel.js';
import type { SimGroup, SimulatorPhone } from './simulator-phone.js';

/**
 * Numbers starting with 000, or with the country code 999 (assigned to no country, so it can be
 * typed as +999…), have no account on the simulated network.
 */
export function simulatedNumberExists(number: string): boolean {
  return /^\d{8,15}$/.test(number) && !number.startsWith('000') && !number.startsWith('999');
}

/** Numbers starting with 001, or with the country code 997 (assigned to none), have an account but refuse being added to groups. */
export function simulatedNumberRefusesGroups(number: string): boolean {
  return number.startsWith('001') || number.startsWith('997');
}

/** The simulated phone's own number: 55119 followed by the connection id on eight digits. */
export function simulatorOwnNumber(whatsappId: number): string {
  return `55119${String(whatsappId).padStart(8, '0')}`;
}

/** A group id as WhatsApp makes them: 18 digits starting 120363. */
function newGroupId(): string {
  const digits = [...randomBytes(12)].map((b) => String(b % 10)).join('');
  return `120363${digits}`;
}

/** A group someone else created, with the phone in it (tests and the demo set these up). */
export type AddedGroup = {
  id?: string | undefined;
  subject: string;
  description?: string | undefined;
  announce?: boolean | undefined;
  restrict?: boolean | undefined;
  phoneIsAdmin: boolean;
  participants: { number: string; admin: boolean }[];
};

export class SimulatorGroups {
  readonly #phone: SimulatorPhone;
  readonly #ownNumber: string;

  constructor(phone: SimulatorPhone, ownNumber: string) {
    this.#phone = phone;
    this.#ownNumber = ownNumber;
  }

  add(input: AddedGroup): SimGroup {
    const others = input.participants.filter((p) => p.number !== this.#ownNumber);
    const group: SimGroup = {
      id: input.id ?? newGroupId(),
      subject: input.subject,
      description: input.description ?? '',
      announce: input.announce ?? false,
      restrict: input.restrict ?? false,
      participants: [{ number: this.#ownNumber, admin: input.phoneIsAdmin }, ...others],
    };
    this.#phone.saveGroup(group);
    return group;
  }

  /** A message from a group the phone did not know yet: it is a member (not admin), and so is the sender. */
  joinOnMessage(message: InboundMessage): void {
    if (message.chat.kind !== 'group') return;
    const known = this.#phone.group(message.chat.groupId);
    const sender = message.sender?.number;
    if (known && (!sender || known.participants.some((p) => p.number === sender))) return;
    const group: SimGroup = known ?? {
      id: message.chat.groupId,
      subject: message.group?.subject ?? '',
      description: '',
      announce: false,
      restrict: false,
      participants: [{ number: this.#ownNumber, admin: false }],
    };
    if (sender && !group.participants.some((p) => p.number === sender)) group.participants.push({ number: sender, admin: false });
    this.#phone.saveGroup(group);
  }

  /** Throws unless the phone may write in the group (a member; an admin when only admins write). */
  checkMaySend(groupId: string): void {
    const group = this.#memberOf(groupId);
    if (group.announce && !this.#isAdmin(group)) throw new AppError('ERR_GROUP_NOT_ADMIN');
  }

  list(): GroupInfo[] {
    return this.#phone
      .groups()
      .filter((g) => g.participants.some((p) => p.number === this.#ownNumber))
      .map((g) => this.#info(g));
  }

  info(groupId: string): GroupInfo {
    return this.#info(this.#memberOf(groupId));
  }

  create(subject: string, numbers: string[]): GroupCreated {
    const failed: GroupCreated['failed'] = [];
    const members: SimGroup['participants'] = [];
    for (const number of new Set(numbers)) {
      if (number === this.#ownNumber) continue;
      if (!simulatedNumberExists(number)) failed.push({ number, error: 'ERR_WAPP_INVALID_CONTACT' });
      else if (simulatedNumberRefusesGroups(number)) failed.push({ number, error: 'ERR_GROUP_ADD_REFUSED' });
      else members.push({ number, admin: false });
    }
    const group: SimGroup = { id: newGroupId(), subject, description: '', announce: false, restrict: false, participants: [{ number: this.#ownNumber, admin: true }, ...members] };
    this.#phone.saveGroup(group);
    return { group: this.#info(group), failed };
  }

  update(groupId: string, change: GroupChange): void {
    const group = this.#memberOf(groupId);
    const admin = this.#isAdmin(group);
    if ('announce' in change) {
      if (!admin) throw new AppError('ERR_GROUP_NOT_ADMIN');
      group.announce = change.announce;
    } else {
      if (group.restrict && !admin) throw new AppError('ERR_GROUP_NOT_ADMIN');
      if ('subject' in change) group.subject = change.subject;
      else group.description = change.description;
    }
    this.#phone.saveGroup(group);
  }

  #memberOf(groupId: string): SimGroup {
    const group = this.#phone.group(groupId);
    if (!group?.participants.some((p) => p.number === this.#ownNumber)) throw new AppError('ERR_GROUP_NOT_FOUND');
    return group;
  }

  #isAdmin(group: SimGroup): boolean {
    return group.participants.some((p) => p.number === this.#ownNumber && p.admin);
  }

  #info(group: SimGroup): GroupInfo {
    return {
      groupId: group.id,
      subject: group.subject,
      description: group.description,
      announce: group.announce,
      restrict: group.restrict,
      participants: group.participants.map((p) => ({ number: p.number, admin: p.admin, me: p.number === this.#ownNumber })),
    };
  }
}
