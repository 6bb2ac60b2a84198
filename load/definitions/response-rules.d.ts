// Types of response-rules.js, the generated bundle of load/rules/bundle.ts.
export * from '../rules/bundle.ts';
