import { describe, expect, it } from 'vitest';
import { userFolderName } from './user-files.js';

describe('userFolderName', () => {
  it('keeps lowercase names and encodes every other byte', () => {
    expect(userFolderName('alice')).toBe('alice');
    expect(userFolderName('Alice')).toBe('%41lice');
    expect(userFolderName('..')).toBe('%2E%2E');
    expect(userFolderName('a/b')).toBe('a%2Fb');
    expect(userFolderName('token:ci')).toBe('token%3Aci');
    expect(userFolderName('oidc:josé')).toBe('oidc%3Ajos%C3%A9');
  });

  it('is injective, also when the file system folds case', () => {
    const names = ['alice', 'Alice', 'ALICE', '%41lice', 'a%2Fb', 'a/b', 'a.b', 'a%2Eb', '~x', '-', '_', 'x'.repeat(300), 'x'.repeat(301)];
    const folders = names.map(userFolderName);
    expect(new Set(folders).size).toBe(names.length);
    expect(new Set(folders.map((folder) => folder.toLowerCase())).size).toBe(names.length);
    for (const folder of folders) {
      expect(folder).not.toMatch(/[/\\.]/);
      expect(folder.length).toBeLessThanOrEqual(200);
    }
  });

  it('refuses an empty name', () => {
    expect(() => userFolderName('')).toThrow();
  });
});
