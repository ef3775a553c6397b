/**
 * The agent's interface (issue 10): one agent, used by every entry point — the website chat (streaming), the
 * demo route, the chat-platform webhook, the WhatsApp webhook. Entry points other than the website stream call
 * `reply`; they never see how it is made (offline grounded model or Mistral, tools over HTTP, link audit).
 */
export type AssistantChannel = 'web' | 'demo' | 'facebook' | 'messenger' | 'instagram' | 'whatsapp' | 'telegram';

export interface AssistantMessage {
  role: 'user' | 'assistant';
  text: string;
  /**
   * The tools an assistant message called (the UI stream's tool parts, sent back by the client), inputs only:
   * what an earlier turn was about (a show, a day, a party) for follow-ups. Their outputs are not kept: they
   * came back from the client, and facts are fetched again.
   */
  tools?: Array<{ toolName: string; input: Record<string, unknown> }>;
}

export interface AssistantTurn {
  /** The conversation so far, oldest first; the last one is the guest's question. */
  messages: AssistantMessage[];
  /** A site locale (`en`, `vi`); the agent answers in it. */
  locale: string;
  channel: AssistantChannel;
  /** Aborts generation (a disconnected client, a shutdown). */
  abortSignal?: AbortSignal;
  /** Correlates the turn's logs and observability events. */
  traceId?: string;
}

export interface LinkAudit {
  /** Internal links of the answer that are not public routes. */
  invalid: string[];
  /**
   * For each invalid link, the closest valid route (by path), when the route data had one: chat platforms show
   * no hint, so they replace the link (`text.split(invalid).join(replacement)`).
   */
  replacements?: Record<string, string>;
}

export interface AssistantReply {
  text: string;
  /** Absolute URLs the answer links to (every one a public route). */
  links: string[];
  audit: LinkAudit;
}

export interface Assistant {
  reply(turn: AssistantTurn): Promise<AssistantReply>;
}
