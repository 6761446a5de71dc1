// Core integrations, one small handler each, grouped by the capability that serves them (its platform part
// contributes them): the route in integrations.ts has already spent the budgets and resolved the caller; a
// handler validates its body and calls its service.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseInput } from '../lib/validation';
import {
  ExtractDataSchema,
  GenerateImageSchema,
  InvokeLLMSchema,
  SendEmailSchema,
  TranscribeAudioSchema,
} from '../schemas/integrations';
import type { ImageService } from '../services/images/image-service';
import type { ExtractionService } from '../services/extraction/extraction-service';
import type { LlmService } from '../services/llm/llm-service';
import { checkJsonSchema } from '../services/llm/schema-bounds';
import type { EmailSender } from '../services/mail/send-email';
import type { Caller } from '../rules/caller';
import { ownOriginOf } from './request-origin';

/** CoreCall is one integration call as a handler sees it: the body is already known to be an object. */
export interface CoreCall {
  request: FastifyRequest;
  reply: FastifyReply;
  appId: string;
  caller: Caller;
  body: object;
}

/** CoreHandler answers one `Core/<Name>` call with the body to send. */
export type CoreHandler = (call: CoreCall) => Promise<unknown>;

/** mailHandlers are the Core integrations of the mail capability. */
export function mailHandlers(mail: EmailSender): Record<string, CoreHandler> {
  return {
    SendEmail: ({ request, appId, caller, body }) =>
      mail.send(appId, caller, parseInput(SendEmailSchema, body), request.ip),
  };
}

/** extractionHandlers are the Core integrations of document extraction. */
export function extractionHandlers(extraction: ExtractionService): Record<string, CoreHandler> {
  return {
    ExtractDataFromUploadedFile: ({ request, appId, caller, body }) => {
      const input = parseInput(ExtractDataSchema, body);
      // The same bounds as InvokeLLM's schema, before the file is read (its answer may go to the model).
      checkJsonSchema(input.json_schema, 'json_schema');
      return extraction.extract(appId, input, caller, request.ip);
    },
  };
}

/** llmHandlers are the Core integrations of the LLM provider; without one they answer the 503 naming it. */
export function llmHandlers(llm: LlmService): Record<string, CoreHandler> {
  return {
    // Whatever the body holds, no provider is said first.
    InvokeLLM: ({ request, appId, caller, body }) => {
      llm.requireProvider();
      return llm.invoke(appId, caller, parseInput(InvokeLLMSchema, body), request.ip);
    },
    TranscribeAudio: ({ request, appId, caller, body }) => {
      llm.requireProvider();
      return llm.transcribe(appId, caller, parseInput(TranscribeAudioSchema, body), request.ip);
    },
  };
}

/** imageHandlers are the Core integrations of generated images (served under `/media/`). */
export function imageHandlers(
  images: ImageService,
  publicUrl: string | undefined,
): Record<string, CoreHandler> {
  return {
    GenerateImage: async ({ request, body }) => {
      const { prompt } = parseInput(GenerateImageSchema, body);
      // A provider failure is an UpstreamError naming the provider (502, logged by the error map).
      const file = await images.generate(prompt);
      // Absolute when this server knows its own origin; else relative (never from the Host header alone).
      return { url: `${ownOriginOf(request, publicUrl) ?? ''}/media/${file}` };
    },
  };
}
