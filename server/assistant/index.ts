import type { AppContext } from '../platform/context.ts';
import { assistantApiBaseUrl } from './address.ts';
import { createAgent, type Agent } from './agent.ts';
import type { Assistant } from './types.ts';

export type { Assistant, AssistantReply, AssistantTurn, AssistantMessage, AssistantChannel, LinkAudit } from './types.ts';
export type { Agent, LinkAuditCounts } from './agent.ts';
export { noteOwnAddress, socketBaseUrl } from './address.ts';
export { repairLinks } from './linkAudit.ts';

const overrides = new WeakMap<AppContext, Assistant>();
const agents = new WeakMap<AppContext, Agent>();

/** Tests: make `app` use `assistant` (a scripted one) instead of the configured agent. */
export function useAssistant(app: AppContext, assistant: Assistant): void {
  overrides.set(app, assistant);
}

/**
 * The agent of `app` (made once, from its configuration): offline grounded model or Mistral, tools over HTTP to
 * the assistant-safe endpoints, link audit, observability. Entry points other than the website stream use
 * `reply`; a test's `useAssistant` replaces it.
 */
export function assistantFor(app: AppContext): Assistant {
  return overrides.get(app) ?? agentFor(app);
}

/** The real agent of `app` (its streaming entry points: the website chat, the legacy route). */
export function agentFor(app: AppContext): Agent {
  let agent = agents.get(app);
  if (!agent) {
    agent = createAgent({ config: app.config, logger: app.logger, analytics: app.analytics, baseUrl: () => assistantApiBaseUrl(app, app.config) });
    agents.set(app, agent);
  }
  return agent;
}

/** Tests: make `app`'s agent this one (e.g. built with the SDK's mock model or a fake Mistral's fetch). */
export function useAgent(app: AppContext, agent: Agent): void {
  agents.set(app, agent);
}
