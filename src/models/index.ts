export { emptyUsage, sumUsage, plainUsage, usageTotal } from './usage.js';
export { languageModelV3 } from './language-model-v3.js';
