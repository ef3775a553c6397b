import type { Assistant, AssistantReply, AssistantTurn } from '../../server/assistant/index.ts';
import { eventually } from './eventually.ts';

/**
 * A scripted agent for the entry points' specs (inject with `useAssistant(app, scripted)`): records each turn and
 * answers with `answer(turn)` — by default a fixed reply — which a spec replaces per test (to fail, to wait …).
 */
export function scriptedAssistant(initial?: (turn: AssistantTurn) => Promise<AssistantReply> | AssistantReply) {
  const fallback = (turn: AssistantTurn): AssistantReply => ({ text: `Answer (${turn.locale}): ${turn.messages.at(-1)?.text}`, links: [], audit: { invalid: [] } });
  const assistant: Assistant & {
    turns: AssistantTurn[];
    answer: (turn: AssistantTurn) => Promise<AssistantReply> | AssistantReply;
    reset(): void;
    called(count?: number): Promise<void>;
  } = {
    turns: [],
    /** Resolves once `count` turns have reached the agent (generation under way). */
    async called(count = 1) {
      await eventually(() => assistant.turns.length >= count, { intervalMs: 5, what: () => `the agent to be called ${count} times (called ${assistant.turns.length})` });
    },
    answer: initial ?? fallback,
    async reply(turn) {
      assistant.turns.push(turn);
      return assistant.answer(turn);
    },
    reset() {
      assistant.turns.length = 0;
      assistant.answer = initial ?? fallback;
    },
  };
  return assistant;
}

/** A promise and its settle functions: lets a spec hold the agent mid-generation. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
