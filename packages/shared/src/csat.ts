/**
 * Customer satisfaction: after 'Resolver', a connection may ask the customer to rate the service
 * from 1 to 5. The connection's settings, the texts the customer receives in each language, the
 * windows an answer and its comment are taken in, and a ticket's ratings as the API shows them.
 */
import { z } from 'zod';
import { hasNoNul, required } from './schemas.js';

export const CSAT_LANGUAGES = ['pt', 'en', 'es'] as const;
export type CsatLanguage = (typeof CSAT_LANGUAGES)[number];

/** The question sent when the connection leaves its text empty. */
export const CSAT_DEFAULT_QUESTIONS: Record<CsatLanguage, string> = {
  pt: 'Como você avalia o atendimento? Responda de 1 a 5 (1 = péssimo, 5 = ótimo).',
  en: 'How would you rate our service? Reply from 1 to 5 (1 = terrible, 5 = excellent).',
  es: '¿Cómo califica la atención? Responda de 1 a 5 (1 = pésimo, 5 = excelente).',
};

/** Sent once the score is stored; the invitation to comment only when the answer had none. */
export const CSAT_THANKS: Record<CsatLanguage, { withComment: string; withoutComment: string }> = {
  pt: { withComment: 'Obrigado pela sua avaliação!', withoutComment: 'Obrigado pela sua avaliação! Se quiser, escreva um comentário sobre o atendimento.' },
  en: { withComment: 'Thank you for your rating!', withoutComment: 'Thank you for your rating! If you like, write a comment about the service.' },
  es: { withComment: '¡Gracias por su calificación!', withoutComment: '¡Gracias por su calificación! Si lo desea, escriba un comentario sobre la atención.' },
};

/** A question takes its answer for 24 hours; then a reply is a new conversation as usual. */
export const CSAT_ANSWER_WINDOW_MS = 24 * 3600_000;
/** The message that follows the score within 10 minutes is its comment. */
export const CSAT_COMMENT_WINDOW_MS = 10 * 60_000;
export const CSAT_QUESTION_MAX_LENGTH = 1000;
export const CSAT_COMMENT_MAX_LENGTH = 2000;

export const ZCsatSettingsInputSchema = z.strictObject({
  enabled: z.boolean(required),
  /** '' sends the language's default question. */
  question: z.string(required).trim().max(CSAT_QUESTION_MAX_LENGTH, 'TOO_LONG').refine(hasNoNul, 'INVALID'),
  language: z.enum(CSAT_LANGUAGES, 'INVALID'),
});
export type TCsatSettingsInput = z.input<typeof ZCsatSettingsInputSchema>;

export const ZCsatSettingsSchema = ZCsatSettingsInputSchema.extend({
  /** What is sent: the question, or the language's default when it is empty. */
  effectiveQuestion: z.string(),
});
export type TCsatSettings = z.infer<typeof ZCsatSettingsSchema>;

export const ZTicketRatingSchema = z.object({
  id: z.number(),
  ticketId: z.number(),
  userId: z.number().nullable(),
  askedAt: z.string(),
  score: z.number().int().min(1).max(5).nullable(),
  answeredAt: z.string().nullable(),
  comment: z.string().nullable(),
  commentAt: z.string().nullable(),
  /** 'waiting': asked, no answer yet; 'answered'; 'expired': the customer wrote something else, or too late. */
  state: z.enum(['waiting', 'answered', 'expired']),
});
export type TTicketRating = z.infer<typeof ZTicketRatingSchema>;

export function csatQuestionText(settings: { question: string; language: CsatLanguage }): string {
  return settings.question.trim() || CSAT_DEFAULT_QUESTIONS[settings.language];
}

export function asCsatLanguage(value: string): CsatLanguage {
  return CSAT_LANGUAGES.find((l) => l === value) ?? 'pt';
}
