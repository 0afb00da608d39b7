// @vitest-environment node
// The API examples in docs/api-examples/ must match the server's OpenAPI document: each file is
// { operationId, status, schema: "<component name>", body } and body must validate against
// components.schemas[schema]. Nothing is skipped: no document or no examples is a failure.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const OPENAPI = process.env.KUPA_OPENAPI ?? join(here, 'openapi.json');
const EXAMPLES = process.env.KUPA_API_EXAMPLES ?? resolve(here, '../../../../docs/api-examples');
const DOC_ID = 'https://kupa.invalid/openapi.json';

interface Example {
  operationId: string;
  status: number;
  schema: string;
  body: unknown;
}

type OpenApi = {
  paths?: Record<
    string,
    Record<string, { operationId?: string; responses?: Record<string, unknown> }>
  >;
  components?: { schemas?: Record<string, unknown> };
};

/** The responses the document declares for an operation, by status code. */
function declaredResponses(doc: OpenApi, operationId: string): string[] | undefined {
  for (const methods of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(methods)) {
      if (op.operationId === operationId) return Object.keys(op.responses ?? {});
    }
  }
  return undefined;
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

const exampleFiles = existsSync(EXAMPLES)
  ? readdirSync(EXAMPLES)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => join(EXAMPLES, f))
  : [];

function makeAjv(doc: OpenApi) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  // OpenAPI's numeric formats; the type keyword already checks they are numbers.
  for (const format of ['int32', 'int64', 'float', 'double']) {
    ajv.addFormat(format, { type: 'number', validate: () => true });
  }
  ajv.addSchema({ ...doc, $id: DOC_ID });
  return ajv;
}

describe('API examples match the OpenAPI document', () => {
  it('has an OpenAPI document and examples to check', () => {
    expect(
      existsSync(OPENAPI),
      `No OpenAPI document at ${OPENAPI}: the server writes it (see the Makefile's gen-api).`,
    ).toBe(true);
    expect(
      exampleFiles.length,
      `No API examples found in ${EXAMPLES}: expected files like {"operationId","status","schema","body"}.`,
    ).toBeGreaterThan(0);
  });

  if (!existsSync(OPENAPI)) return;
  const doc = readJson(OPENAPI) as OpenApi;
  const ajv = makeAjv(doc);

  it.each(exampleFiles.map((f) => [relative(EXAMPLES, f), f]))('%s', (_, file) => {
    const example = readJson(file) as Partial<Example>;
    expect(typeof example.operationId, 'operationId must be a string').toBe('string');
    expect(typeof example.schema, 'schema must name a component').toBe('string');
    expect(typeof example.status, 'status must be a number').toBe('number');
    expect(example, 'body is missing').toHaveProperty('body');

    const statuses = declaredResponses(doc, example.operationId as string);
    expect(statuses, `no operation ${example.operationId} in the document`).toBeDefined();
    expect(statuses, `${example.operationId} does not declare status ${example.status}`).toContain(
      String(example.status),
    );

    expect(
      doc.components?.schemas?.[example.schema as string],
      `components.schemas.${example.schema} does not exist`,
    ).toBeDefined();

    const validate = ajv.getSchema(`${DOC_ID}#/components/schemas/${example.schema}`);
    expect(validate).toBeDefined();
    const valid = validate?.(example.body);
    const problems = (validate?.errors ?? []).map(
      (e) => `body${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
    );
    expect(problems, `${example.schema} rejects ${relative(EXAMPLES, file)}`).toEqual([]);
    expect(valid).toBe(true);
  });
});
