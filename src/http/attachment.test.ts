import { describe, expect, it } from 'vitest';
import { attachment } from './attachment.ts';

describe('attachment', () => {
  it('names a plain file as it is', () => {
    expect(attachment('press-kit.txt')).toBe('attachment; filename="press-kit.txt"');
  });

  it('gives any other name as filename* (UTF-8), with an ASCII stand-in no client can misread', () => {
    expect(attachment('Café "Oto" programme.pdf')).toBe(`attachment; filename="Caf_Oto_programme.pdf"; filename*=UTF-8''Caf%C3%A9%20%22Oto%22%20programme.pdf`);
  });
});
