import { describe, expect, it } from 'vitest';
import { renderJunit } from '../junit.ts';
import { HOSTILE, sampleRunReport } from './sample-run.ts';
import { elementsNamed, parseXmlStrict, type XmlElement } from './strict-xml.ts';

const report = sampleRunReport();
const xml = renderJunit(report);
// Parsed on first use, so that a malformed file fails the well-formedness test by name.
let parsed: XmlElement | undefined;
const root = () => (parsed ??= parseXmlStrict(xml));
const suites = () => elementsNamed(root(), 'testsuite');
const testcase = (id: string): XmlElement => elementsNamed(root(), 'testcase').find((test) => test.attributes.name!.startsWith(`${id} `))!;
const child = (element: XmlElement, name: string) => element.children.find((candidate) => candidate.name === name);
const property = (element: XmlElement, name: string) =>
  elementsNamed(child(element, 'properties')!, 'property').find((p) => p.attributes.name === name)?.attributes.value;

describe('junit.xml', () => {
  it('is well-formed XML with a <testsuites> root totalling the run', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(() => parseXmlStrict(xml)).not.toThrow();
    expect(root().name).toBe('testsuites');
    expect(root().attributes).toMatchObject({ tests: '11', failures: '3', errors: '0', skipped: '2', time: '187.333' });
  });

  it('has one <testsuite> per area, in run order, with its own counts of tests, failures and skips', () => {
    const counts = suites().map((suite) => ({
      name: suite.attributes.name,
      tests: Number(suite.attributes.tests),
      failures: Number(suite.attributes.failures),
      skipped: Number(suite.attributes.skipped),
      cases: elementsNamed(suite, 'testcase').length,
      failureElements: elementsNamed(suite, 'failure').length,
      skippedElements: elementsNamed(suite, 'skipped').length,
    }));
    expect(counts).toEqual([
      { name: 'auth', tests: 2, failures: 0, skipped: 0, cases: 2, failureElements: 0, skippedElements: 0 },
      { name: 'decide', tests: 3, failures: 2, skipped: 0, cases: 3, failureElements: 2, skippedElements: 0 },
      { name: 'errors', tests: 1, failures: 1, skipped: 0, cases: 1, failureElements: 1, skippedElements: 0 },
      { name: 'assets', tests: 3, failures: 0, skipped: 2, cases: 3, failureElements: 0, skippedElements: 2 },
      { name: 'service', tests: 2, failures: 0, skipped: 0, cases: 2, failureElements: 0, skippedElements: 0 },
    ]);
    expect(property(suites()[0]!, 'spec.sha256')).toBe(report.spec.sha256);
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: the test's name quotes the pattern of a test case's name.
  it('names each test case `${id} ${title}` in the class of its area, with its time in seconds and its level as a property', () => {
    const health = testcase('SERVICE-HEALTH');
    expect(health.attributes).toEqual({ classname: 'service', name: 'SERVICE-HEALTH GET /health answers 200 without a key', time: '0.003' });
    expect(property(health, 'level')).toBe('MUST');
    expect(property(testcase('ERRORS-REQUEST-ID-HEADER'), 'level')).toBe('SHOULD');
    // The hostile title survives, decoded back to what the check said.
    expect(testcase('DECIDE-CHOICE-MARGIN').attributes.name).toBe(`DECIDE-CHOICE-MARGIN Choice answers carry probabilities that sum to 1 ${HOSTILE}`);
  });

  it('carries the message, the evidence and the curl line in a failure, with its level up front', () => {
    const failure = child(testcase('DECIDE-CHOICE-MARGIN'), 'failure')!;
    expect(failure.attributes.message).toBe(
      `MUST: ${report.checks.find((c) => c.id === 'DECIDE-CHOICE-MARGIN')!.message!.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800]/g, '')}`,
    );
    expect(failure.attributes.type).toBe('MUST check failed');
    expect(failure.text).toContain('< 200');
    expect(failure.text).toContain('"no":0.56');
    expect(failure.text).toContain(`curl -sS -i -X POST 'http://127.0.0.1:47123/v1/decide'`);
    expect(failure.text).toContain('8 earlier exchanges left out');
    expect(child(testcase('ERRORS-REQUEST-ID-HEADER'), 'failure')!.attributes.message).toMatch(/^SHOULD: Expected an X-Request-Id header/);
    expect(child(testcase('DECIDE-COLD-START-TIMEOUT'), 'failure')!.text).toContain('! transport error: timeout: no complete response within 180000 ms');
  });

  it('gives a skipped check its reason, and an observed check its observation beside the reference choice', () => {
    expect(child(testcase('ASSETS-ISOLATION'), 'skipped')!.attributes.message).toBe('needs a key of a second project (--api-key-b or DECISION_API_KEY_B)');
    const observed = testcase('OBSERVE-UNKNOWN-ROUTE');
    expect(child(observed, 'failure')).toBeUndefined();
    expect(child(observed, 'skipped')).toBeUndefined();
    const out = child(observed, 'system-out')!.text;
    expect(out).toContain(`Observed: status 404 with an HTML page ${HOSTILE}`);
    expect(out).toContain('Reference choice: 404 NOT_FOUND in the error body.');
    expect(out).toContain('Matches the reference: no');
    expect(property(observed, 'open_point')).toBe('unknown-route');
  });

  it('strips the control characters XML cannot carry and escapes markup', () => {
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
    expect(xml).not.toContain(HOSTILE);
    expect(xml).toContain('&lt;/script&gt;&lt;b&gt;&amp;&quot;&apos;');
  });
});
