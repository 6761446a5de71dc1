// The connectors' refusals, each with the code hosted code and the SDK read (`{message, code}`).
/** ConnectorErrorCode names what went wrong. */
export type ConnectorErrorCode =
  | 'connector_not_found'
  | 'connector_not_configured'
  | 'connector_not_connected'
  | 'connector_reauthorization_required'
  | 'connector_provider_unavailable'
  | 'connector_state_invalid'
  | 'from_url_not_allowed'
  | 'app_user_required';

/** CONNECTOR_ERROR_STATUS is each code's HTTP status. */
export const CONNECTOR_ERROR_STATUS: Record<ConnectorErrorCode, number> = {
  connector_not_found: 404,
  connector_not_configured: 409,
  connector_not_connected: 404,
  connector_reauthorization_required: 409,
  connector_provider_unavailable: 502,
  connector_state_invalid: 400,
  from_url_not_allowed: 400,
  app_user_required: 401,
};

/** ConnectorError is a connector refusal with its code. */
export class ConnectorError extends Error {
  override name = 'ConnectorError';
  constructor(
    readonly code: ConnectorErrorCode,
    message: string,
  ) {
    super(message);
  }
}
