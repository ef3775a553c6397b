import { createMistral } from '@ai-sdk/mistral';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Config } from '../platform/config.ts';
import { OfflineModel } from './offline/model.ts';

/**
 * The model of the agent: Mistral (`@ai-sdk/mistral`) with MISTRAL_API_KEY, else the grounded offline model;
 * ASSISTANT_MODEL=offline|mistral forces one. Both are AI SDK language models driven the same way.
 */
export type ModelConfig = Pick<Config, 'assistantModel' | 'mistralApiKey' | 'mistralModel' | 'mistralBaseUrl' | 'venueTimezone' | 'defaultLocale'>;

export function createModel(config: ModelConfig, options: { fetch?: typeof fetch } = {}): LanguageModelV3 {
  if (config.assistantModel === 'mistral' && config.mistralApiKey) {
    return createMistral({ apiKey: config.mistralApiKey, baseURL: config.mistralBaseUrl, fetch: options.fetch })(config.mistralModel);
  }
  return new OfflineModel({ timezone: config.venueTimezone, defaultLocale: config.defaultLocale });
}
