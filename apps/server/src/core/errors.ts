import { ERROR_MESSAGES, ERROR_STATUS, type ErrorCode } from '@zapdesk/shared/errors';

/** The one error type services throw; the HTTP layer turns it into `{ error, message }`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly fields: Record<string, string> | undefined;
  readonly messageId: number | undefined;

  /**
   * `status` overrides the code's usual status, for a foreign client that knows the code with
   * another status (whaticket's integration API answers ERR_SESSION_EXPIRED with 401).
   */
  constructor(code: ErrorCode, options: { message?: string; fields?: Record<string, string>; messageId?: number; status?: number } = {}) {
    super(options.message ?? ERROR_MESSAGES[code]);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = options.status ?? ERROR_STATUS[code];
    this.fields = options.fields;
    this.messageId = options.messageId;
  }
}
