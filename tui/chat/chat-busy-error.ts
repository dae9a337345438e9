import { AgentlibError } from '../../lib/core/errors/agentlib-error.js';

/** Why the chat cannot start a turn or switch the model now. */
export type ChatBusy = 'running' | 'switching';

/** The chat refused an action because a turn is running or a model is being loaded. */
export class ChatBusyError extends AgentlibError {
  override readonly name: string = 'ChatBusyError';
  /** What the chat is busy with. */
  readonly busy: ChatBusy;

  constructor(busy: ChatBusy) {
    super(busy === 'running' ? 'a turn is running' : 'a model switch is in progress');
    this.busy = busy;
  }
}
