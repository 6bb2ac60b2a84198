// Short names for the generated schema types (spec/types.gen.ts, from `npm run gen:types`).
import type { components } from './types.gen.ts';

export type Schemas = components['schemas'];
