import { z } from 'zod';

/** MAX_PROMPT_LENGTH bounds image prompts; longer ones are rejected rather than cut. */
export const MAX_PROMPT_LENGTH = 4000;

/** GenerateImageSchema is the body of `Core/GenerateImage` once it is known to be an object. */
export const GenerateImageSchema = z.object({
  prompt: z
    .string({
      error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string'),
    })
    .max(MAX_PROMPT_LENGTH, `must be at most ${MAX_PROMPT_LENGTH} characters`)
    .trim()
    .min(1, 'must not be empty or only whitespace'),
});

export type GenerateImageInput = z.infer<typeof GenerateImageSchema>;

/** IntegrationParamsSchema is the path of a Core integration call. */
export const IntegrationParamsSchema = z.object({ appId: z.string(), name: z.string() });
