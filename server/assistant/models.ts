import { createMistral } from '@ai-sdk/mistral';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Config } from '../platform/config.ts';
import { OfflineModel } from './offline/model.ts';

/**
 * The model of the agent: Mistral (`@ai-sdk/mistral`) with MISTRAL_API_KEY, else the grounded offline model;
 * ASSISTANT_MODEL=offline|mistral forces one, and ASSISTANT_MODEL=openai-compatible drives a self-hosted model
 * behind an OpenAI-style chat-completions API (Ollama, vLLM, llama.cpp server) through
 * `@ai-sdk/openai-compatible` (ASSISTANT_OPENAI_BASE_URL, ASSISTANT_OPENAI_MODEL, optional
 * ASSISTANT_OPENAI_API_KEY). All are AI SDK language models driven the same way: same system prompt, same
 * tools, same link audit.
 */
export type ModelConfig = Pick<
  Config,
  | 'assistantModel'
  | 'mistralApiKey'
  | 'mistralModel'
  | 'mistralBaseUrl'
  | 'assistantOpenaiBaseUrl'
  | 'assistantOpenaiModel'
  | 'assistantOpenaiApiKey'
  | 'venueTimezone'
  | 'defaultLocale'
>;

/** The provider name the OpenAI-compatible model reports (`openai-compatible.chat:<model>`). */
export const OPENAI_COMPATIBLE_PROVIDER = 'openai-compatible';

export function createModel(config: ModelConfig, options: { fetch?: typeof fetch } = {}): LanguageModelV3 {
  if (config.assistantModel === 'mistral' && config.mistralApiKey) {
    return createMistral({ apiKey: config.mistralApiKey, baseURL: config.mistralBaseUrl, fetch: options.fetch })(config.mistralModel);
  }
  if (config.assistantModel === 'openai-compatible') {
    if (!config.assistantOpenaiBaseUrl || !config.assistantOpenaiModel) {
      throw new Error('ASSISTANT_MODEL=openai-compatible needs ASSISTANT_OPENAI_BASE_URL and ASSISTANT_OPENAI_MODEL');
    }
    return createOpenAICompatible({
      name: OPENAI_COMPATIBLE_PROVIDER,
      baseURL: config.assistantOpenaiBaseUrl,
      apiKey: config.assistantOpenaiApiKey,
      includeUsage: true,
      fetch: options.fetch,
    }).chatModel(config.assistantOpenaiModel);
  }
  return new OfflineModel({ timezone: config.venueTimezone, defaultLocale: config.defaultLocale });
}
