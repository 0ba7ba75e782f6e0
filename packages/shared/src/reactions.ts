/**
 * Reactions people put on messages in WhatsApp (an emoji per person per message): how a message
 * carries them, and the simulated phone's control that makes a customer react.
 */
import { z } from 'zod';
import { hasNoNul as noNul, required } from './schemas.js';

/** The longest reaction kept: one emoji, which may be several code points (a flag, a skin tone, a family). */
export const REACTION_MAX_LENGTH = 32;

/** One person's reaction on a message; `fromMe`: put by the connection's own phone. */
export const ZMessageReactionSchema = z.object({
  emoji: z.string(),
  fromMe: z.boolean(),
  /** Who reacted, as the inbox knows them (absent when only their number is known, or fromMe). */
  senderName: z.string().optional(),
});
export type TMessageReaction = z.infer<typeof ZMessageReactionSchema>;

/**
 * POST /simulator/{id}/reaction: a person (`from`, or the phone's owner with `fromMe`) reacts to a
 * message by its provider id; an empty emoji takes their reaction away.
 */
export const ZSimulatorReactionSchema = z.object({
  id: z.string(required).min(1, 'REQUIRED').max(200, 'TOO_LONG'),
  from: z
    .string(required)
    .trim()
    .regex(/^\d{8,20}$/, 'DIGITS_ONLY'),
  name: z.string('INVALID').max(100, 'TOO_LONG').refine(noNul, 'INVALID').optional(),
  emoji: z.string(required).max(REACTION_MAX_LENGTH, 'TOO_LONG').refine(noNul, 'INVALID'),
  fromMe: z.boolean('INVALID').optional().default(false),
});
export type TSimulatorReaction = z.input<typeof ZSimulatorReactionSchema>;
