// Wiring of the LLM integrations: the provider (or none), the model names, the daily budget on the usage
// table, the file reader for file_urls and audio, and the web search; the AI gateway shares the provider,
// the guards, the model names and the budget with them.
import type { FileReader } from '../../services/files/file-reader';
import { createAiGateway, type AiGateway } from '../../services/llm/ai-gateway';
import { createLlmAdmission } from '../../services/llm/llm-admission';
import { createLlmFiles } from '../../services/llm/llm-files';
import { createLlmProvider } from '../../services/llm/llm-provider';
import { createLlmService, type LlmService } from '../../services/llm/llm-service';
import { createModelNames } from '../../services/llm/model-names';
import { createTokenBudget, type TokenBudget } from '../../services/llm/token-budget';
import { createWebSearch } from '../../services/llm/web-search';
import { createLlmUsageStore } from '../../store/llm-usage-store';
import { registerAiGatewayRoutes } from '../../routes/ai-gateway';
import { llmHandlers } from '../../routes/core-handlers';
import type { Part, Shared } from './part';

/** LlmPart is the LLM service (extraction and the admin usage report use it) and its daily budget. */
export interface LlmPart extends Part {
  llm: LlmService;
  budget: TokenBudget;
}

/**
 * buildLlmPart builds InvokeLLM, TranscribeAudio and the AI gateway from the configuration; queued usage
 * rows are written on close.
 */
export function buildLlmPart(shared: Shared, files: { readFileUrl: FileReader }): LlmPart {
  const { llm, gateway, budget } = buildLlmServices(shared, files.readFileUrl);
  return {
    name: 'LLM',
    llm,
    budget,
    coreHandlers: llmHandlers(llm),
    routes: (app, { guard, budget }) => registerAiGatewayRoutes(app, { guard, budget, gateway }),
    close: () => llm.close(),
  };
}

function buildLlmServices(
  shared: Shared,
  readFileUrl: FileReader,
): { llm: LlmService; gateway: AiGateway; budget: TokenBudget } {
  const { config, logger } = shared;
  const usage = createLlmUsageStore(shared.db);
  const provider = config.LLM_PROVIDER_URL
    ? createLlmProvider({
        baseUrl: config.LLM_PROVIDER_URL,
        apiKey: config.LLM_API_KEY,
        timeoutMs: config.LLM_TIMEOUT_MS,
        onFailure: (detail) => logger.warn(detail, 'LLM provider failed'),
      })
    : null;
  const budget = createTokenBudget({
    store: usage,
    dailyTokens: config.LLM_DAILY_TOKEN_BUDGET,
    shares: {
      reservePercent: config.LLM_SERVICE_RESERVE_PERCENT,
      userDailyTokens: config.LLM_USER_DAILY_TOKENS ?? Math.ceil(config.LLM_DAILY_TOKEN_BUDGET / 10),
      ipDailyTokens: config.LLM_IP_DAILY_TOKENS ?? Math.ceil(config.LLM_DAILY_TOKEN_BUDGET / 5),
      usage: shared.usage,
    },
    log: logger,
  });
  const model = createModelNames(config.LLM_MODEL, config.LLM_MODEL_MAP, (name, fallback) =>
    logger.warn(
      { model: name, using: fallback },
      'unknown LLM model name: using LLM_MODEL (add it to LLM_MODEL_MAP)',
    ),
  );
  const visibilityOf = async (appId: string) => (await shared.apps.findAccessSettings(appId)).visibility;
  const log = {
    info: (message: string) => logger.info(message),
    warn: (fields: object, message: string) => logger.warn(fields, message),
  };
  const llm = createLlmService({
    provider,
    budget,
    usage,
    files: createLlmFiles({
      readFileUrl,
      limits: { maxBytes: config.EXTRACT_MAX_MB * 1024 * 1024, timeoutMs: config.EXTRACT_FETCH_TIMEOUT_MS },
    }),
    readFileUrl,
    audioLimits: {
      maxBytes: config.LLM_AUDIO_MAX_MB * 1024 * 1024,
      timeoutMs: config.EXTRACT_FETCH_TIMEOUT_MS,
    },
    model,
    transcribeModel: config.LLM_TRANSCRIBE_MODEL,
    search: config.WEB_SEARCH_URL
      ? createWebSearch({
          baseUrl: config.WEB_SEARCH_URL,
          timeoutMs: Math.min(config.LLM_TIMEOUT_MS, 15_000),
        })
      : undefined,
    visibilityOf,
    log,
  });
  const gateway = createAiGateway({
    admission: createLlmAdmission({ provider, budget, visibilityOf }),
    budget,
    model,
    maxOutputTokens: config.LLM_DAILY_TOKEN_BUDGET,
    log,
  });
  return { llm, gateway, budget };
}
