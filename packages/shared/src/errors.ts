/**
 * The one list of error codes. The server throws `new AppError(code)`; the web app's
 * translations are typed against `ErrorCode`, so a code without a text fails the type check.
 */
export const ERROR_STATUS = {
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 400,
  ERR_WAPP_CHECK_CONTACT: 400,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 400,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_SENDING_WAPP_MSG: 400,
  ERR_DELETE_WAPP_MSG: 400,
  ERR_OTHER_OPEN_TICKET: 409,
  ERR_SESSION_EXPIRED: 403,
  ERR_INVALID_TOKEN: 401,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_NO_PERMISSION: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_NO_QUEUE_FOUND: 404,
  ERR_NO_QUICK_ANSWER_FOUND: 404,
  ERR_CREATING_MESSAGE: 500,
  ERR_CREATING_TICKET: 500,
  ERR_FETCH_WAPP_MSG: 400,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,
  ERR_EMAIL_ALREADY_EXISTS: 409,
  ERR_SETTING_READ_ONLY: 400,
  ERR_CANNOT_DELETE_SELF: 400,
  ERR_LAST_ADMIN: 400,
  ERR_SIMULATOR_DISABLED: 400,
  ERR_NO_MESSAGE_FOUND: 404,
  ERR_MESSAGE_NOT_FAILED: 400,
  ERR_INVALID_CSV: 400,
  ERR_TICKET_NOT_OPEN: 400,
  ERR_QUOTED_NOT_IN_TICKET: 400,
  ERR_RESOLVE_WITH_TRANSFER: 400,
  ERR_DUPLICATED_WAPP_NAME: 409,
  ERR_NOT_A_SIMULATOR: 400,
  ERR_TOO_MANY_FILES: 400,
  ERR_INVALID_UPLOAD: 400,
  ERR_SECRET_UNREADABLE: 409,
  ERR_VALIDATION: 400,
  ERR_TOO_MANY_REQUESTS: 429,
  ERR_NOT_FOUND: 404,
  ERR_INTERNAL: 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** English texts, used by the server as the `message` of an error body and by the web app as the `en` fallback. */
export const ERROR_MESSAGES: Record<ErrorCode, string> = {
  ERR_NO_OTHER_WHATSAPP: 'There must be at lest one default WhatsApp connection.',
  ERR_NO_DEF_WAPP_FOUND: 'No default WhatsApp found. Check connections page.',
  ERR_WAPP_NOT_INITIALIZED: 'This WhatsApp session is not initialized. Check connections page.',
  ERR_WAPP_CHECK_CONTACT: 'Could not check WhatsApp contact. Check connections page.',
  ERR_WAPP_INVALID_CONTACT: 'This is not a valid whatsapp number.',
  ERR_WAPP_DOWNLOAD_MEDIA: 'Could not download media from WhatsApp. Check connections page.',
  ERR_INVALID_CREDENTIALS: 'Authentication error. Please try again.',
  ERR_SENDING_WAPP_MSG: 'Error sending WhatsApp message. Check connections page.',
  ERR_DELETE_WAPP_MSG: "Couldn't delete message from WhatsApp.",
  ERR_OTHER_OPEN_TICKET: "There's already an open ticket for this contact.",
  ERR_SESSION_EXPIRED: 'Session expired. Please login.',
  ERR_INVALID_TOKEN: 'Invalid session. Please login.',
  ERR_USER_CREATION_DISABLED: 'User creation was disabled by administrator.',
  ERR_NO_PERMISSION: "You don't have permission to access this resource.",
  ERR_DUPLICATED_CONTACT: 'A contact with this number already exists.',
  ERR_NO_SETTING_FOUND: 'No setting found with this ID.',
  ERR_NO_CONTACT_FOUND: 'No contact found with this ID.',
  ERR_NO_TICKET_FOUND: 'No ticket found with this ID.',
  ERR_NO_USER_FOUND: 'No user found with this ID.',
  ERR_NO_WAPP_FOUND: 'No WhatsApp found with this ID.',
  ERR_NO_QUEUE_FOUND: 'No queue found with this ID.',
  ERR_NO_QUICK_ANSWER_FOUND: 'No quick answer found with this ID.',
  ERR_CREATING_MESSAGE: 'Error while creating message on database.',
  ERR_CREATING_TICKET: 'Error while creating ticket on database.',
  ERR_FETCH_WAPP_MSG: 'Error fetching the message in WhtasApp, maybe it is too old.',
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 'This color is already in use, pick another one.',
  ERR_WAPP_GREETING_REQUIRED: 'Greeting message is required if there is more than one queue.',
  ERR_EMAIL_ALREADY_EXISTS: 'A user with this email already exists.',
  ERR_SETTING_READ_ONLY: 'This setting is read-only.',
  ERR_CANNOT_DELETE_SELF: 'You cannot delete your own user.',
  ERR_LAST_ADMIN: 'There must be at least one administrator.',
  ERR_NO_MESSAGE_FOUND: 'No message found with this ID.',
  ERR_MESSAGE_NOT_FAILED: 'Only a message whose send failed can be sent again.',
  ERR_SIMULATOR_DISABLED: 'The simulator is off on this server (SIMULATOR=on enables it).',
  ERR_INVALID_CSV: 'The file is not a valid contacts CSV.',
  ERR_TICKET_NOT_OPEN: 'Messages are sent on open tickets: accept or reopen it first.',
  ERR_QUOTED_NOT_IN_TICKET: 'The quoted message is not in this ticket.',
  ERR_RESOLVE_WITH_TRANSFER: 'A ticket is resolved by the one resolving it, without a transfer in the same request.',
  ERR_DUPLICATED_WAPP_NAME: 'A connection with this name already exists.',
  ERR_NOT_A_SIMULATOR: 'This connection is not a simulated phone.',
  ERR_TOO_MANY_FILES: 'At most 10 files per message.',
  ERR_INVALID_UPLOAD: 'The upload could not be read. Send it again.',
  ERR_SECRET_UNREADABLE: 'This secret was saved with another key: set it again.',
  ERR_VALIDATION: 'Some fields are invalid. Check the reported data.',
  ERR_TOO_MANY_REQUESTS: 'Too many attempts. Please wait a minute and try again.',
  ERR_NOT_FOUND: 'Not found.',
  ERR_INTERNAL: 'An error occurred!',
};

export type ErrorBody = {
  error: ErrorCode;
  message: string;
  /** Field errors of an ERR_VALIDATION: path -> message. */
  fields?: Record<string, string>;
  /** A reply that was stored but could not be sent: it stays in the chat as failed, with Retry. */
  messageId?: number;
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}
