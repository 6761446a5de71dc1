import { hash, verify } from '@node-rs/argon2';
import { randomSecret } from '../../lib/secure-random';

// argon2id (the library's default algorithm) with OWASP's second recommended profile: 19 MiB, t=2, p=1.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** PasswordHasher hashes and checks passwords off the main thread. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** verify checks password against storedHash; with no hash it still spends the same time, then fails. */
  verify(storedHash: string | null, password: string): Promise<boolean>;
}

/** createPasswordHasher returns an argon2id hasher with a dummy hash that equalises timing for unknown users. */
export async function createPasswordHasher(): Promise<PasswordHasher> {
  const dummyHash = await hash(randomSecret(), OPTIONS);
  return {
    hash: (password) => hash(password, OPTIONS),
    async verify(storedHash, password) {
      const ok = await verify(storedHash ?? dummyHash, password).catch(() => false);
      return storedHash !== null && ok;
    },
  };
}
