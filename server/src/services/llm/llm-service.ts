// Core.InvokeLLM and Core.TranscribeAudio: who may call (signed in unless the app is public without
// login), the daily token budget, the call itself (a chat completion with files, web context and the
// caller's schema is llm-completion.ts; a transcription is here), and the usage recorded for the operator.
import { InvalidInputError, OutboundLimitError, TooManyRequestsError } from '../../lib/errors';
import type { Caller } from '../../rules/caller';
import type { LlmUsageRow, LlmUsageStore } from '../../store/llm-usage-store';
import type { FileReader } from '../files/file-reader';
import { createLlmAdmission } from './llm-admission';
import {
  callerFields,
  createCompletion,
  type CompletionDeps,
  type CompletionIntegration,
  type InvokeInput,
} from './llm-completion';
import { MAX_DOCUMENT_CHARS } from './llm-files';
import type { TurnAnswer, TurnMessage, ToolSpec } from './chat-turn';
import type { LlmProvider } from './llm-provider';

export type { InvokeInput } from './llm-completion';

/** ConverseInput is one step of an agent's turn: the conversation so far and the tools it may call. */
export interface ConverseInput {
  model?: string | undefined;
  messages: TurnMessage[];
  tools: ToolSpec[];
  /** signal ends the call (and the wait for a free slot) early: the turn's deadline, the server's close. */
  signal: AbortSignal;
}

/** SLOT_RETRY_MS is how often an agent step waiting for a free LLM slot tries again. */
const SLOT_RETRY_MS = 200;

export interface TranscribeInput {
  url: string;
  language?: string | undefined;
  prompt?: string | undefined;
}

/** LlmServiceDeps: the completion's (budget, files, model, search, log) and the rest below. */
export interface LlmServiceDeps extends CompletionDeps {
  /** provider is absent when LLM_PROVIDER_URL is not set: every call is then a 503 naming it. */
  provider: LlmProvider | null;
  usage: Pick<LlmUsageStore, 'recent'>;
  readFileUrl: FileReader;
  audioLimits: { maxBytes: number; timeoutMs: number };
  transcribeModel: string;
  visibilityOf: (appId: string) => Promise<string>;
}

/** LlmService is the LLM integrations (InvokeLLM, TranscribeAudio, extraction's fill) and their guards. */
export interface LlmService {
  /** configured says whether a provider is set (the start-up report and health name it). */
  configured: boolean;
  /** requireProvider throws the 503 naming LLM_PROVIDER_URL when no provider is set (before input checks). */
  requireProvider(): void;
  /** recentUsage lists appId's newest recorded calls, for the operator. */
  recentUsage(appId: string, limit: number): Promise<LlmUsageRow[]>;
  /** close writes the usage still queued (call before the database closes). */
  close(): Promise<void>;
  /** invoke answers InvokeLLM: a string, or with response_json_schema a value that satisfies it. */
  invoke(appId: string, caller: Caller, input: InvokeInput, ip?: string): Promise<unknown>;
  /** structured fills schema from a document's text for ExtractDataFromUploadedFile, as InvokeLLM would. */
  structured(appId: string, caller: Caller, text: string, schema: object, ip?: string): Promise<unknown>;
  /** transcribe answers TranscribeAudio: the audio file's text. */
  transcribe(appId: string, caller: Caller, input: TranscribeInput, ip?: string): Promise<string>;
  /**
   * converse runs one streamed step of an agent's turn under the same guards and budgets as InvokeLLM,
   * handing the answer's text over as it grows; a step waits for a free slot (calls in flight) instead of
   * failing. Usage is recorded under `Agents`.
   */
  converse(
    appId: string,
    caller: Caller,
    input: ConverseInput,
    onText: (text: string) => void,
  ): Promise<TurnAnswer & { model: string }>;
}

/** createLlmService builds the LLM integrations on the provider (or none) and the guards. */
export function createLlmService(deps: LlmServiceDeps): LlmService {
  const completeAdmitted = createCompletion(deps);

  // Who may call, the 503 without a provider and the budgets: shared with the AI gateway.
  const { requireProvider, admit, admitCaller } = createLlmAdmission(deps);

  /** enterWhenFree takes a call slot for caller, waiting while its calls in flight are at the limit. */
  async function enterWhenFree(appId: string, caller: Caller, signal: AbortSignal): Promise<() => void> {
    for (;;) {
      try {
        return deps.budget.enter(appId, caller);
      } catch (error) {
        if (!(error instanceof TooManyRequestsError) || signal.aborted) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, SLOT_RETRY_MS));
    }
  }

  /** complete is one chat call for integration: guards, files, web context, schema check and usage. */
  async function complete(
    appId: string,
    caller: Caller,
    input: InvokeInput,
    integration: CompletionIntegration,
    ip: string | undefined,
  ): Promise<unknown> {
    const { provider, release } = await admit(appId, caller, integration, ip);
    try {
      return await completeAdmitted(provider, appId, caller, input, integration, ip);
    } finally {
      release();
    }
  }

  async function transcribeAdmitted(
    provider: LlmProvider,
    appId: string,
    caller: Caller,
    input: TranscribeInput,
    ip: string | undefined,
  ): Promise<string> {
    const file = await deps.readFileUrl(appId, input.url, deps.audioLimits).catch((error: unknown) => {
      if (error instanceof OutboundLimitError && error.reason === 'size') {
        throw new InvalidInputError(
          `The audio file is larger than ${Math.round(deps.audioLimits.maxBytes / 1024 / 1024)} MB (LLM_AUDIO_MAX_MB)`,
        );
      }
      throw error;
    });
    const result = await provider.transcribe({
      model: deps.transcribeModel,
      bytes: file.bytes,
      filename: file.filename,
      contentType: file.contentType,
      language: input.language,
      prompt: input.prompt,
    });
    deps.budget.record(
      appId,
      {
        integration: 'TranscribeAudio',
        model: deps.transcribeModel,
        ...callerFields(caller),
        ...result.usage,
      },
      ip,
    );
    return result.text;
  }

  return {
    /** configured says whether a provider is set (the start-up report and health name it). */
    configured: deps.provider !== null,
    /** requireProvider throws the 503 naming LLM_PROVIDER_URL when no provider is set (before any input check). */
    requireProvider: (): void => void requireProvider(),
    /** recentUsage lists appId's newest recorded calls, for the operator. */
    async recentUsage(appId: string, limit: number): Promise<LlmUsageRow[]> {
      await deps.budget.flush();
      return deps.usage.recent(appId, limit);
    },
    /** close writes the usage still queued (call before the database closes). */
    close: () => deps.budget.close(),
    /** invoke answers InvokeLLM: a string, or with response_json_schema a value that satisfies it. */
    invoke: (appId: string, caller: Caller, input: InvokeInput, ip?: string): Promise<unknown> =>
      complete(appId, caller, input, 'InvokeLLM', ip),

    /**
     * structured fills schema from a document's text for ExtractDataFromUploadedFile: the same call and
     * guards as InvokeLLM with that schema, its usage recorded under ExtractDataFromUploadedFile.
     */
    async structured(
      appId: string,
      caller: Caller,
      text: string,
      schema: object,
      ip?: string,
    ): Promise<unknown> {
      const document =
        text.length > MAX_DOCUMENT_CHARS ? `${text.slice(0, MAX_DOCUMENT_CHARS)}\n[… cut]` : text;
      return complete(
        appId,
        caller,
        {
          prompt: `Extract the data the JSON schema describes from this document. Use only what the document says.\n\nDocument:\n${document}`,
          response_json_schema: schema,
        },
        'ExtractDataFromUploadedFile',
        ip,
      );
    },

    async converse(appId, caller, input, onText) {
      const provider = await admitCaller(appId, caller, 'Agents');
      await deps.budget.check(appId, caller);
      const release = await enterWhenFree(appId, caller, input.signal);
      const model = deps.model(input.model);
      try {
        const answer = await provider.turn({ ...input, model }, onText);
        deps.budget.record(appId, { integration: 'Agents', model, ...callerFields(caller), ...answer.usage });
        return { ...answer, model };
      } finally {
        release();
      }
    },

    /** transcribe answers TranscribeAudio: the audio file's text. */
    async transcribe(appId: string, caller: Caller, input: TranscribeInput, ip?: string): Promise<string> {
      const { provider, release } = await admit(appId, caller, 'TranscribeAudio', ip);
      try {
        return await transcribeAdmitted(provider, appId, caller, input, ip);
      } finally {
        release();
      }
    },
  };
}
