// The one contract every FileStorage driver passes: each driver's test file runs this suite on its driver.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEY_PATTERN, type FileStorage } from './file-storage';

/** bytesIn streams bytes in uneven pieces, as a network upload arrives. */
function bytesIn(bytes: Buffer, piece = 70_001): Readable {
  async function* pieces() {
    for (let offset = 0; offset < bytes.length; offset += piece) yield bytes.subarray(offset, offset + piece);
  }
  return Readable.from(pieces());
}

/** describeFileStorageContract runs the shared contract against storage() (called inside each test). */
export function describeFileStorageContract(name: string, storage: () => FileStorage | undefined): void {
  describe(`FileStorage contract: ${name}`, () => {
    const ready = (context: { skip: (note?: string) => void }): FileStorage => {
      const driver = storage();
      if (!driver) context.skip(`${name} is not available here`);
      return driver as FileStorage;
    };

    it('puts a stream and gets the same bytes back, with its size', async (context) => {
      const driver = ready(context);
      const bytes = randomBytes(2.5 * 1024 * 1024);
      const { key, size } = await driver.put(bytesIn(bytes));
      expect(key).toMatch(STORAGE_KEY_PATTERN);
      expect(size).toBe(bytes.length);
      expect(await driver.stat(key)).toEqual({ size: bytes.length });
      const back = await buffer((await driver.get(key)) as Readable);
      expect(back.equals(bytes)).toBe(true);
    });

    it('reads a range, across a 1 MiB boundary and at the end', async (context) => {
      const driver = ready(context);
      const bytes = randomBytes(2 * 1024 * 1024 + 10);
      const { key } = await driver.put(bytesIn(bytes));
      const across = { start: 1024 * 1024 - 5, end: 1024 * 1024 + 14 };
      const part = await buffer((await driver.get(key, across)) as Readable);
      expect(part.equals(bytes.subarray(across.start, across.end + 1))).toBe(true);
      const tail = await buffer(
        (await driver.get(key, { start: bytes.length - 3, end: bytes.length - 1 })) as Readable,
      );
      expect(tail.equals(bytes.subarray(bytes.length - 3))).toBe(true);
    });

    it('stores an empty file', async (context) => {
      const driver = ready(context);
      const { key, size } = await driver.put(Readable.from([]));
      expect(size).toBe(0);
      expect(await driver.stat(key)).toEqual({ size: 0 });
    });

    it('answers null for a missing key and deletes idempotently', async (context) => {
      const driver = ready(context);
      const missing = '0'.repeat(32);
      expect(await driver.get(missing)).toBeNull();
      expect(await driver.stat(missing)).toBeNull();
      const { key } = await driver.put(bytesIn(Buffer.from('bye')));
      await driver.delete(key);
      await driver.delete(key);
      expect(await driver.stat(key)).toBeNull();
      expect(await driver.get(key)).toBeNull();
    });

    it('lists stored keys', async (context) => {
      const driver = ready(context);
      const { key } = await driver.put(bytesIn(Buffer.from('listed')));
      const keys: string[] = [];
      for await (const listed of driver.list()) keys.push(listed);
      expect(keys).toContain(key);
    });

    it('leaves nothing behind when the upload fails midway', async (context) => {
      const driver = ready(context);
      const before: string[] = [];
      for await (const listed of driver.list()) before.push(listed);
      async function* broken() {
        yield randomBytes(1024 * 1024 + 100);
        throw new Error('connection reset');
      }
      await expect(driver.put(Readable.from(broken()))).rejects.toThrow('connection reset');
      const after: string[] = [];
      for await (const listed of driver.list()) after.push(listed);
      expect(after.sort()).toEqual(before.sort());
    });
  });
}
