import type { AppContext } from '../context.ts';
import type { Assistant } from './types.ts';

export type { Assistant, AssistantReply, AssistantTurn, AssistantMessage, AssistantChannel } from './types.ts';

const overrides = new WeakMap<AppContext, Assistant>();

/** Tests: make `app` use `assistant` (a scripted one) instead of the configured agent. */
export function useAssistant(app: AppContext, assistant: Assistant): void {
  overrides.set(app, assistant);
}

/** The agent of `app`. The assistant issue's helper replaces the default below with the real agent. */
export function assistantFor(app: AppContext): Assistant {
  const assistant = overrides.get(app);
  if (assistant) return assistant;
  throw new Error('the assistant agent is not wired yet (issue 10)');
}
