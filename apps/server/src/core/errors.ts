import { ERROR_MESSAGES, ERROR_STATUS, type ErrorCode } from '@zapdesk/shared/errors';

/** The one error type services throw; the HTTP layer turns it into `{ error, message }`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly fields: Record<string, string> | undefined;

  constructor(code: ErrorCode, options: { message?: string; fields?: Record<string, string> } = {}) {
    super(options.message ?? ERROR_MESSAGES[code]);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ERROR_STATUS[code];
    this.fields = options.fields;
  }
}
