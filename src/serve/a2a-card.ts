import type { AgentCard } from '@a2a-js/sdk';
import type { CallContext } from './call-context.js';

/** The agent card extension whose `params` hold each skill's input schema (the workflow's props). */
export const SKILL_SCHEMAS_EXTENSION = 'https://june.dev/a2a/skill-input-schemas';

/**
 * The agent card of the served workflows: one skill per workflow (its description), each
 * skill's input schema in the extension {@link SKILL_SCHEMAS_EXTENSION}, bearer tokens as
 * its security, streaming on. Its JSON-RPC interface is set once the server listens.
 */
export function agentCard(context: CallContext): AgentCard {
  const served = [...context.served.values()];
  return {
    name: 'June workflows',
    description: `Runs these workflows as durable runs: ${served.map((s) => s.name).join(', ')}. Send a data part with the workflow's props (and the skill id in the message metadata "skill" when there is more than one).`,
    supportedInterfaces: [],
    provider: undefined,
    version: '1',
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [
        {
          uri: SKILL_SCHEMAS_EXTENSION,
          description: "Each skill's input schema (JSON Schema of the data part), by skill id.",
          required: false,
          params: Object.fromEntries(
            served.map((s) => [s.name, s.propsSchema ?? { type: 'object' }]),
          ),
        },
      ],
    },
    securitySchemes: {
      bearer: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: {
            description: 'The token of a client of this server.',
            scheme: 'Bearer',
            bearerFormat: '',
          },
        },
      },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ['application/json', 'text/plain'],
    defaultOutputModes: ['application/json'],
    skills: served.map((s) => ({
      id: s.name,
      name: s.name,
      description: s.workflow.description ?? `Runs the workflow ${s.name}.`,
      tags: ['june-workflow'],
      examples: [],
      inputModes: ['application/json'],
      outputModes: ['application/json'],
      securityRequirements: [],
    })),
    signatures: [],
  } as unknown as AgentCard;
}
