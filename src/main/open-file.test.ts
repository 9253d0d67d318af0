import { describe, expect, it } from 'vitest';
import { openActionFor } from './open-file.js';

describe('what "Open file" does with a document file', () => {
  it('opens documents, shows runnable files in their folder, refuses network and relative paths', () => {
    expect(openActionFor('/home/ann/docs/report.pdf', 'linux')).toBe('open');
    expect(openActionFor('C:\\Users\\ann\\report.docx', 'win32')).toBe('open');
    expect(openActionFor('C:\\Users\\ann\\setup.EXE', 'win32')).toBe('reveal');
    expect(openActionFor('C:\\Users\\ann\\build.bat', 'win32')).toBe('reveal');
    expect(openActionFor('C:\\Users\\ann\\tool.ps1', 'win32')).toBe('reveal');
    expect(openActionFor('/Users/ann/run.command', 'darwin')).toBe('reveal');
    expect(openActionFor('/home/ann/bin/deploy.sh', 'linux')).toBe('reveal');
    expect(openActionFor('/home/ann/bin/deploy', 'linux')).toBe('reveal');
    expect(openActionFor('\\\\evil-host\\share\\x.pdf', 'win32')).toBe('refuse');
    expect(openActionFor('//evil-host/share/x.pdf', 'win32')).toBe('refuse');
    expect(openActionFor('relative/x.pdf', 'linux')).toBe('refuse');
  });
});
