import { z } from 'zod';

// `base44/connectors/<type>.jsonc`, in the Base44 CLI's format (its `connector` resource): the OAuth service
// an app's backend calls on behalf of the app or of its users, and the scopes it asks for. `connectorId` is
// ours: the id hosted code uses for the connector (`getCurrentAppUserConnection('69a1…')`). Unknown keys are
// kept.

/** CONNECTOR_TYPE is a connector's type: a slug (`googlecalendar`, `slack`, `my_crm`). */
export const CONNECTOR_TYPE = /^[a-z0-9_-]{1,64}$/i;

/** MAX_SCOPES bounds a connector's scopes. */
export const MAX_SCOPES = 100;

/** ConnectorFileSchema is one connector file. */
export const ConnectorFileSchema = z.looseObject({
  type: z.string().regex(CONNECTOR_TYPE, 'must be a slug: letters, digits, "_" or "-" (1–64)'),
  scopes: z
    .array(z.string().min(1).max(500).regex(/^\S+$/, 'must not hold spaces'))
    .max(MAX_SCOPES)
    .default([]),
  connectorId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be 1–100 letters, digits, "_" or "-"')
    .optional(),
});

export type ConnectorFile = z.infer<typeof ConnectorFileSchema>;
