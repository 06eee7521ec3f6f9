import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Someone who clones the repository has only the repository: the README's contract and links must live in it.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');

describe('README', () => {
  it('names the served OpenAPI document and docs/ as the contract', () => {
    const contract = readme.split('\n').find((line) => line.startsWith('- The contract'));
    expect(contract).toContain('/api/v1/openapi.json');
    expect(readme).toContain('[docs/api-decisions.md](docs/api-decisions.md)');
  });

  it('points at no file outside the repository, and every file it links exists', () => {
    const links = [...readme.matchAll(/\]\(([^)#\s]+)[^)]*\)|`(\.\.\/[^`]+)`/g)].map((m) => m[1] ?? m[2]!).filter((l) => !/^[a-z]+:/i.test(l));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      const target = resolve(root, link);
      expect(relative(root, target).startsWith('..'), link).toBe(false);
      expect(existsSync(target), link).toBe(true);
    }
  });
});
