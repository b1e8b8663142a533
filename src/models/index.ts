export { emptyUsage, sumUsage, plainUsage } from './usage.js';
