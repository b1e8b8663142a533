export { fitProps, propsMisfitMessage, type PropsFit } from './props-fit.js';
export { propsSchemaOf } from './props-schema.js';
