/** A refusal or failure the command explains in one message (exit code 1); never a stack trace. */
export class OpsError extends Error {}

/** Bad arguments (exit code 2). */
export class UsageError extends Error {}
