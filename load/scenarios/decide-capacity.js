// k6 run load/scenarios/decide-capacity.js -e BASE_URL=http://127.0.0.1:8080 -e API_KEY=svc_live_... [-e REPORT_DIR=DIR]
// The scenario itself (mix, payloads, rates, thresholds) is load/definitions/decide-capacity.js.
import { scenario } from '../definitions/decide-capacity.js';
import { k6Scenario } from './k6-adapter.js';

const run = k6Scenario(scenario(__ENV), __ENV);

export const options = run.options;
export default run.iteration;
export const setup = run.setup;
export const handleSummary = run.handleSummary;
