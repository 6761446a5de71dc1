import { count, milliseconds } from './env-values';

// Agents and connectors: the two capabilities that act for a user on other services.

/**
 * AgentsEnvShape lists the settings of agent turns (merged into ServerEnvSchema): how many rounds of tool
 * calls one turn may make, how long it may take, and how much of the conversation the model reads.
 */
export const AgentsEnvShape = {
  /** AGENT_MAX_STEPS is how many rounds of tool calls one turn may make before it stops. */
  AGENT_MAX_STEPS: count(8, 50),
  /** AGENT_TURN_TIMEOUT_MS is how long one turn may take, every model call and tool call included. */
  AGENT_TURN_TIMEOUT_MS: milliseconds(120_000),
  /** AGENT_CONTEXT_TOKENS is how much of the conversation the model reads (oldest messages trimmed first). */
  AGENT_CONTEXT_TOKENS: count(16_000, 1_000_000),
};

/** ConnectorsEnvShape lists the settings of connectors (merged into ServerEnvSchema). */
export const ConnectorsEnvShape = {
  /** CONNECTOR_CALL_TIMEOUT_S is how long one `callApi` request may wait for the provider's answer. */
  CONNECTOR_CALL_TIMEOUT_S: count(30, 300),
};
