// A bare Fastify route answering fixed JSON on the decide path: the most this machine and load generator can show.
import Fastify from 'fastify';

const app = Fastify();
const fixed = {
  model: 'svc-one-v1',
  answers: {
    topic: {
      type: 'choice',
      choice: 'billing',
      confidence: 0.5,
      probabilities: { billing: 0.7, shipping: 0.2, returns: 0.05, other: 0.05 },
      abstain: false,
      abstention_status: 'advisory',
    },
  },
  usage: { input_tokens: 10 },
};
app.post('/v1/decide', async () => fixed);
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening on ${address}`);
