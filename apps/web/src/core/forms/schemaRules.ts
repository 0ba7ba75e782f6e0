import { z } from 'zod';

/**
 * Judges a form's own values with a shared API schema: its issue codes become the form's errors,
 * while the form keeps its value types (no optional arrays, null for 'none').
 */
export function schemaRules<T>(schema: z.ZodType) {
  return z.custom<T>().superRefine((values, ctx) => {
    const result = schema.safeParse(values);
    if (result.success) return;
    for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  });
}
