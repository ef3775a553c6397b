import type { AppContext } from '../platform/context.ts';
import { assistantApiBaseUrl } from './address.ts';
import type { Agent } from './agent.ts';
import type { Assistant } from './types.ts';

export type { Assistant, AssistantReply, AssistantTurn, AssistantMessage, AssistantChannel, LinkAudit } from './types.ts';
export type { Agent, LinkAuditCounts } from './agent.ts';
export { noteOwnAddress, socketBaseUrl } from './address.ts';
export { repairLinks } from './linkAudit.ts';

declare module '../platform/context.ts' {
  interface AppContext {
    /** The app's assistant: its agent (made on first use, from the configuration) and a test's replacement. */
    assistantEngine: AssistantEngine;
  }
}

/**
 * Per app, built at boot (the assistant module's `services`): the agent, made once on first use, and a test's
 * override. The agent's code (the AI SDK, the providers, zod, the offline model: half a second of every start) is
 * loaded with the first turn, not at start.
 */
export class AssistantEngine {
  agent: Agent | undefined;
  override: Assistant | undefined;
  /** The agent being made (concurrent first turns wait for the same one). */
  making: Promise<Agent> | undefined;
}

/** The engine of `app`; a context built by hand (a unit test's) gets one on first use. */
const engineOf = (app: AppContext): AssistantEngine => (app.assistantEngine ??= new AssistantEngine());

/** Tests: make `app` use `assistant` (a scripted one) instead of the configured agent. */
export function useAssistant(app: AppContext, assistant: Assistant): void {
  engineOf(app).override = assistant;
}

/**
 * The agent of `app` (made once, from its configuration): offline grounded model or Mistral, tools over HTTP to
 * the assistant-safe endpoints, link audit, observability. Entry points other than the website stream use
 * `reply`; a test's `useAssistant` replaces it.
 */
export async function assistantFor(app: AppContext): Promise<Assistant> {
  return engineOf(app).override ?? agentFor(app);
}

/** The real agent of `app` (its streaming entry points: the website chat, the legacy route). */
export async function agentFor(app: AppContext): Promise<Agent> {
  const engine = engineOf(app);
  if (engine.agent) return engine.agent;
  engine.making ??= import('./agent.ts').then(
    ({ createAgent }) =>
      (engine.agent ??= createAgent({ config: app.config, logger: app.logger, analytics: app.analytics, baseUrl: () => assistantApiBaseUrl(app, app.config) })),
  );
  return engine.making;
}

/** Tests: make `app`'s agent this one (e.g. built with the SDK's mock model or a fake Mistral's fetch). */
export function useAgent(app: AppContext, agent: Agent): void {
  engineOf(app).agent = agent;
}
