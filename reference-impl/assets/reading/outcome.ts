// What reading one file gives: its text (possibly empty: a photograph without words), or why it
// could not be read. The kinds name what went wrong, not what the caller answers: the decide route
// maps them to error codes according to the part that referenced the file (reading-failures.ts).
export type ReadFailureKind =
  /** The reader could not parse the file (a PDF or DOCX broken past its first pages, a corrupt picture). */
  | 'undecodable'
  /** OCR could not read a picture, or the asset's time limit passed first. */
  | 'picture-unread'
  /**
   * The file is over one of the server's reading limits (memory-limits.ts: pixels, PDF images,
   * inflated DOCX parts, text, memory); `message` names the limit, never the file's content.
   */
  | 'over-limit';

export type ReadOutcome = { text: string } | { failure: Exclude<ReadFailureKind, 'over-limit'> } | { failure: 'over-limit'; message: string };
