/** Labels: what admins define (name, colour) and agents put on tickets and contacts. */
import { z } from 'zod';
import { MAX_ID } from './domain.js';
import { required, requiredText, ZIdValue, ZListQuerySchema } from './schemas.js';

/** A label as tickets and contacts carry it (`ZLabelRefSchema` in schemas.ts), with its dates. */
export const ZLabelSchema = z.object({ id: z.number(), name: z.string(), color: z.string(), createdAt: z.string(), updatedAt: z.string() });
export type TLabel = z.infer<typeof ZLabelSchema>;

export const LABEL_NAME_MAX = 30;

/** A colour as the colour picker writes it: `#RRGGBB`, stored upper case. */
export const ZLabelColor = z
  .string(required)
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'INVALID')
  .transform((c) => c.toUpperCase());

export const ZLabelInputSchema = z.object({ name: requiredText(1, LABEL_NAME_MAX), color: ZLabelColor });
export type TLabelInput = z.input<typeof ZLabelInputSchema>;

/** POST /tickets/{id}/labels and /contacts/{id}/labels: the label to put on. */
export const ZLabelLinkSchema = z.object({ labelId: ZIdValue });
const ZLinkId = z.coerce.number('INVALID').int('INVALID').positive('INVALID').max(MAX_ID, 'INVALID');
export const ZLabelLinkParamsSchema = z.object({ id: ZLinkId, labelId: ZLinkId });

/** At most this many labels in one list filter. */
export const LABEL_FILTER_MAX = 50;

/**
 * A list filter by labels (`labelIds`): a JSON list `[1,2]` as the web app sends the queue filter,
 * or plain ids separated by commas (`1,2`). A ticket or contact matches when it carries any of them.
 */
export const ZLabelFilter = z
  .string('INVALID')
  .max(1000, 'TOO_LONG')
  .transform((raw, ctx) => {
    const text = raw.trim();
    let parsed: unknown;
    try {
      parsed = text.startsWith('[') ? JSON.parse(text) : text === '' ? [] : text.split(',').map((part) => (/^\s*\d+\s*$/.test(part) ? Number(part) : part));
    } catch {
      parsed = undefined;
    }
    const ids = z.array(ZIdValue).max(LABEL_FILTER_MAX).safeParse(parsed);
    if (ids.success) return [...new Set(ids.data)];
    ctx.addIssue({ code: 'custom', message: 'INVALID' });
    return z.NEVER;
  });

/** GET /contacts: the page and search, and the label filter. */
export const ZContactListQuerySchema = ZListQuerySchema.extend({ labelIds: ZLabelFilter.optional() });
export type TContactListQuery = z.infer<typeof ZContactListQuerySchema>;
