/** The chat's refusals, each with the HTTP status and code of docs/chat-api.md (`ChatErrorBody`). */
import type { ChatErrorBody } from '../../../shared/chat';

export type ChatErrorCode = ChatErrorBody['error']['code'];

export const CHAT_ERROR_STATUS: Record<ChatErrorCode, number> = {
  INVALID: 400,
  FORBIDDEN: 403,
  DISABLED: 404,
  NOT_FOUND: 404,
  TOO_LARGE: 413,
  RATE_LIMITED: 429,
};

export class ChatError extends Error {
  constructor(
    readonly code: ChatErrorCode,
    message: string,
    readonly fieldErrors?: Record<string, string>,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ChatError';
  }

  get status(): number {
    return CHAT_ERROR_STATUS[this.code];
  }

  toBody(): ChatErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.fieldErrors ? { fieldErrors: this.fieldErrors } : {}),
        ...(this.retryAfterSeconds !== undefined ? { retryAfterSeconds: this.retryAfterSeconds } : {}),
      },
    };
  }
}

export const chatDisabled = () => new ChatError('DISABLED', 'The chat is switched off.');
export const conversationNotFound = () => new ChatError('NOT_FOUND', 'This conversation does not exist (any more).');
export const streamForbidden = () => new ChatError('FORBIDDEN', 'This conversation is not yours.');
export const memberSessionNeeded = () => new ChatError('FORBIDDEN', 'This conversation belongs to a member account: log in to that account to follow it.');
