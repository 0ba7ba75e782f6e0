import { ERROR_MESSAGES, ERROR_STATUS, type ErrorCode } from '@zapdesk/shared/errors';

/** The one error type services throw; the HTTP layer turns it into `{ error, message }`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly fields: Record<string, string> | undefined;
  readonly messageId: number | undefined;

  constructor(code: ErrorCode, options: { message?: string; fields?: Record<string, string>; messageId?: number } = {}) {
    super(options.message ?? ERROR_MESSAGES[code]);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ERROR_STATUS[code];
    this.fields = options.fields;
    this.messageId = options.messageId;
  }
}
