// What a status says, in one place: the suites, the response rules and the load judge (k6 too:
// this module imports nothing) read a success the same way.

/** A 2xx status: any success, whichever one an open point lets the server choose. */
export function isSuccess(reply: { status: number }): boolean {
  return reply.status >= 200 && reply.status < 300;
}
