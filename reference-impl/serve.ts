// The reference server in the foreground, run from its TypeScript sources (tsx); `npm run serve`
// runs the same main() from a bundle (start.mjs).
import { main } from './main.ts';

await main(process.argv.slice(2), process.env);
