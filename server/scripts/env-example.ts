// Writes `.env.example` at the repository's root from the environment schema (src/config/env-example.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envExample } from '../src/config/env-example';

const target = join(import.meta.dirname, '../../.env.example');
writeFileSync(target, envExample());
console.log(`wrote ${target}`);
