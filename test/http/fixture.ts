import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadContract } from '../../server/platform/http/contract.ts';
import type { PolicyEntry } from '../../server/platform/http/policy.ts';

/** The HTTP layer's fixture contract (test/fixtures/http-contract.yaml) and the policy entry that covers it. */
export const httpFixture = loadContract(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/http-contract.yaml'));
export const httpFixtureRegistry: PolicyEntry[] = [{ path: '/api/test/http/', match: 'prefix', level: 'public' }];

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** A GIF header: bytes that are not a PNG. */
export const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64, 1)]);

/** A body sent as a stream: no Content-Length, so the server counts while it reads. */
export function chunked(bytes: Buffer, chunkSize = 512): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, (offset += chunkSize)));
    },
  });
}
