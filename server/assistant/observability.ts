import type { Analytics } from '../platform/integrations/analytics.ts';

/**
 * AI observability (spec §6.5): with ANALYTICS_AI_OBSERVABILITY_ENABLED=true each generation (one assistant
 * turn: every model step and tool call of it) emits PostHog's `$ai_generation` through the analytics client —
 * trace id, model, provider, tokens, latency, stream flag, error. The guest's messages and the answer are
 * included only with ANALYTICS_AI_OBSERVABILITY_CAPTURE_CONTENT=true. Off by default; analytics itself must be
 * on too (ANALYTICS_ENABLED), as for every event.
 */
export interface ObservabilitySettings {
  enabled: boolean;
  captureContent: boolean;
}

export interface GenerationRecord {
  traceId: string;
  model: string;
  provider: string;
  inputTokens?: number;
  outputTokens?: number;
  latencyMs: number;
  stream: boolean;
  channel: string;
  locale: string;
  steps: number;
  error?: unknown;
  input: Array<{ role: string; content: string }>;
  output?: string;
}

export function recordGeneration(analytics: Analytics, settings: ObservabilitySettings, record: GenerationRecord): void {
  if (!settings.enabled || !analytics.enabled) return;
  const properties: Record<string, unknown> = {
    $ai_trace_id: record.traceId,
    $ai_model: record.model,
    $ai_provider: record.provider,
    $ai_input_tokens: record.inputTokens ?? 0,
    $ai_output_tokens: record.outputTokens ?? 0,
    $ai_latency: record.latencyMs / 1000,
    $ai_stream: record.stream,
    $ai_is_error: record.error !== undefined,
    channel: record.channel,
    locale: record.locale,
    steps: record.steps,
  };
  if (record.error !== undefined) properties.$ai_error = errorMessage(record.error);
  if (settings.captureContent) {
    properties.$ai_input = record.input;
    if (record.output !== undefined) properties.$ai_output_choices = [{ role: 'assistant', content: record.output }];
  }
  analytics.capture({ distinctId: record.traceId, event: '$ai_generation', properties });
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 500);
  return String(error).slice(0, 500);
}
