/** The simulated phone's control API (`/api/simulator/...`): what a test or the demo makes a customer do. */
import { z } from 'zod';
import { ZLongText } from './messaging.js';
import { hasNoNul as noNul, required } from './schemas.js';

export const ZSimulatorInboundSchema = z.object({
  id: z.string('INVALID').min(1, 'REQUIRED').max(200, 'TOO_LONG').optional(),
  from: z
    .string(required)
    .trim()
    .regex(/^\d{8,20}$/, 'DIGITS_ONLY'),
  name: z.string('INVALID').max(100, 'TOO_LONG').refine(noNul, 'INVALID').optional(),
  body: ZLongText.optional().default(''),
  media: z
    .object({
      base64: z.string(required).max(30_000_000, 'TOO_LONG'),
      mimetype: z.string(required).min(3, 'TOO_SHORT').max(100, 'TOO_LONG'),
      filename: z.string('INVALID').max(200, 'TOO_LONG').optional().default('file'),
    })
    .optional(),
  // As WhatsApp shares a place: its coordinates, and its name and address when it has them (or a description as stored).
  location: z
    .object({
      latitude: z.number('INVALID').min(-90).max(90),
      longitude: z.number('INVALID').min(-180).max(180),
      name: z.string('INVALID').max(200, 'TOO_LONG').optional(),
      address: z.string('INVALID').max(300, 'TOO_LONG').optional(),
      description: z.string().max(500).optional(),
    })
    .optional(),
  vcard: z.string('INVALID').max(10000, 'TOO_LONG').optional(),
  quotedId: z.string('INVALID').max(200, 'TOO_LONG').optional(),
  fromMe: z.boolean('INVALID').optional().default(false),
  group: z.object({ id: z.string(required).regex(/^[\w-]{3,60}$/, 'INVALID'), subject: z.string(required).max(100, 'TOO_LONG') }).optional(),
});
export type TSimulatorInbound = z.input<typeof ZSimulatorInboundSchema>;

/** POST /simulator/{id}/edit: the author of a message (by its provider id) changes its text. */
export const ZSimulatorEditSchema = z.object({
  id: z.string(required).min(1, 'REQUIRED').max(200, 'TOO_LONG'),
  body: ZLongText.refine((v) => v.trim().length > 0, 'REQUIRED'),
});
export type TSimulatorEdit = z.input<typeof ZSimulatorEditSchema>;

/** POST /simulator/{id}/contact: a contact changes their name, or sets (pictureUrl) or removes (null) their picture. */
export const ZSimulatorContactSchema = z.object({
  from: z
    .string(required)
    .trim()
    .regex(/^\d{8,20}$/, 'DIGITS_ONLY'),
  name: z.string('INVALID').trim().min(1, 'REQUIRED').max(100, 'TOO_LONG').refine(noNul, 'INVALID').optional(),
  pictureUrl: z.url('INVALID').max(500, 'TOO_LONG').nullable().optional(),
});
export type TSimulatorContact = z.input<typeof ZSimulatorContactSchema>;

export const ZSimulatorOutboxItemSchema = z.object({
  id: z.string(),
  to: z.string(),
  kind: z.enum(['text', 'media', 'voice', 'delete']),
  body: z.string(),
  mimetype: z.string().nullable(),
  filename: z.string().nullable(),
  quotedId: z.string().nullable(),
  ack: z.number(),
  sentAt: z.string(),
});
export type TSimulatorOutboxItem = z.infer<typeof ZSimulatorOutboxItemSchema>;

/** POST /simulator/{id}/history: old messages the simulated phone holds for a number, without delivering them. */
export const ZSimulatorHistorySchema = z.object({
  from: z
    .string(required)
    .trim()
    .regex(/^\d{8,20}$/, 'DIGITS_ONLY'),
  name: z.string('INVALID').max(100, 'TOO_LONG').refine(noNul, 'INVALID').optional(),
  messages: z
    .array(
      z.object({
        id: z.string('INVALID').min(1, 'REQUIRED').max(200, 'TOO_LONG').optional(),
        body: ZLongText,
        fromMe: z.boolean('INVALID').optional().default(false),
        timestamp: z.iso.datetime('INVALID').optional(),
      }),
      'INVALID',
    )
    .min(1, 'REQUIRED')
    .max(500, 'TOO_LONG'),
});
export type TSimulatorHistory = z.input<typeof ZSimulatorHistorySchema>;

/** POST /simulator/{id}/calls: a contact calls the simulated phone (the same id again is the same call offered again). */
export const ZSimulatorCallSchema = z.object({
  id: z.string('INVALID').min(1, 'REQUIRED').max(200, 'TOO_LONG').optional(),
  from: z
    .string(required)
    .trim()
    .regex(/^\d{8,20}$/, 'DIGITS_ONLY'),
  video: z.boolean('INVALID').optional().default(false),
  /** A call in a group the caller and the phone belong to. */
  groupId: z
    .string('INVALID')
    .regex(/^[\w-]{3,60}$/, 'INVALID')
    .optional(),
});
export type TSimulatorCall = z.input<typeof ZSimulatorCallSchema>;

/** A call as the simulated phone holds it: still ringing, or rejected by the product. */
export const ZSimulatorCallItemSchema = z.object({
  id: z.string(),
  from: z.string(),
  groupId: z.string().nullable(),
  video: z.boolean(),
  status: z.enum(['ringing', 'rejected']),
  at: z.string(),
});
export type TSimulatorCallItem = z.infer<typeof ZSimulatorCallItemSchema>;
