import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { containsMarkup } from './markup-scan.js';

const inImage = (markup: string) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xfe, 0x00, 0x40]), Buffer.from(markup, 'latin1'), randomBytes(64)]);

describe('markup in a photo', () => {
  it.each([
    '<script>alert(1)</script>',
    '<SCRIPT SRC=//evil.example/x.js>',
    '<!DOCTYPE html>',
    '<html>',
    '<body onload=alert(1)>',
    '<Html\nlang=en>',
    '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)">',
    '<svg/onload=alert(1)>',
    '<img src=x onerror=alert(1)>',
    '<iframe srcdoc="x">',
    '<object data=x.swf>',
  ])('finds %s', (markup) => {
    expect(containsMarkup(inImage(markup))).toBe(true);
  });

  it.each([
    ['an XMP packet', '<?xpacket begin=""?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF></rdf:RDF></x:xmpmeta>'],
    ['a short tag name followed by binary data', '<svg \x00\x01\xff>'],
    ['a tag name inside a longer word', '<htmlish> <bodyguard> <svgz>'],
    ['plain text about HTML', 'an html page with a script and an svg'],
  ])('ignores %s', (_name, text) => {
    expect(containsMarkup(inImage(text))).toBe(false);
  });

  it('finds markup wherever it lies in a large file, across the windows it is searched in', () => {
    const filler = Buffer.alloc(1024 * 1024, 0xaa);
    const markup = '<svg/onload=alert(1)>';
    for (let at = 256 * 1024 - 300; at < 256 * 1024 + 40; at += 7) {
      const file = Buffer.concat([filler.subarray(0, at), Buffer.from(markup, 'latin1'), filler]);
      expect(containsMarkup(file)).toBe(true);
    }
    const attributes = `<img ${'a'.repeat(250)}>`;
    for (const at of [256 * 1024 - 265, 256 * 1024 - 262, 2 * (256 * 1024 - 265) - 100]) {
      expect(containsMarkup(Buffer.concat([filler.subarray(0, at), Buffer.from(attributes, 'latin1'), filler]))).toBe(true);
    }
    expect(containsMarkup(Buffer.concat([filler, filler, Buffer.from('<script>', 'latin1')]))).toBe(true);
    expect(containsMarkup(Buffer.concat([filler, filler]))).toBe(false);
  });

  it('never matches random bytes, which is what compressed image data looks like', () => {
    for (let i = 0; i < 4; i++) expect(containsMarkup(randomBytes(4 * 1024 * 1024))).toBe(false);
  });
});
