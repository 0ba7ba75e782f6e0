/**
 * The shape of a delivery of Meta's Instagram webhook, as far as the product reads it. A signed
 * body is read only through this schema: every field the product uses has the type it expects
 * (fields Meta adds later are ignored), so junk is refused as a whole instead of failing half-way.
 */
import { z } from 'zod';

const ZText = z.string().nullish();

const ZIgAttachmentSchema = z.object({
  type: ZText,
  payload: z.object({ url: ZText, title: ZText }).nullish(),
});

const ZIgMessageSchema = z.object({
  mid: ZText,
  text: ZText,
  is_echo: z.boolean().nullish(),
  is_deleted: z.boolean().nullish(),
  is_unsupported: z.boolean().nullish(),
  attachments: z.array(ZIgAttachmentSchema).nullish(),
  reply_to: z.object({ mid: ZText, story: z.object({ url: ZText, id: ZText }).nullish() }).nullish(),
});

const ZIgMessagingEventSchema = z.object({
  sender: z.object({ id: ZText }).nullish(),
  recipient: z.object({ id: ZText }).nullish(),
  timestamp: z.number().nullish(),
  message: ZIgMessageSchema.nullish(),
  /** A reaction to a message (`mid`), or its withdrawal (`action` 'unreact'). */
  reaction: z.object({ mid: ZText, action: ZText, emoji: ZText }).nullish(),
});

export const ZIgWebhookBodySchema = z.object({
  object: z.string(),
  entry: z.array(
    z.object({
      id: z.string(),
      time: z.number().nullish(),
      messaging: z.array(ZIgMessagingEventSchema).nullish(),
    }),
  ),
});

/** One messaging event of Meta's webhook (the fields the product reads). */
export type IgMessagingEvent = z.infer<typeof ZIgMessagingEventSchema>;
export type TIgWebhookBody = z.infer<typeof ZIgWebhookBodySchema>;

/** The delivery's body, or undefined when it is not JSON or not of the shape above. */
export function parseIgWebhookBody(rawBody: string): TIgWebhookBody | undefined {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return undefined;
  }
  const parsed = ZIgWebhookBodySchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}
