import { describe, expect, it } from '@jest/globals';
import { randomBytes, randomInt } from 'node:crypto';
import { containsMarkup } from './markup-scan.js';

/** What the scan finds, as the regular expression it was first written as (searched over the file read as Latin-1). */
const MARKUP = /<(?:script|iframe|!doctype)|<(?:html|body)[\t\n\f\r />]|<(?:svg|img|object|embed|math)[\t\n\f\r /][\t\n\f\r\x20-\x7e]{0,256}>/i;
const FRAGMENTS = '< > <script <SCRIPT <iFrame <!doctype <!DocType <\x01doctype <html <BODY <svg <Svg <img <object <embed <math <htm <svgz'.split(' ');
const SEPARATORS = [' ', '/', '\t', '\n', '\f', '\r', '\v', '\x00', '\x7f', '\xff', '=', 'a'];

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

  it('finds markup wherever it lies in a large file', () => {
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

  it('finds exactly what the regular expression finds, in any case, after any byte', () => {
    const pick = (list: string[]) => list[randomInt(list.length)]!;
    const files: Buffer[] = [];
    for (let n = 0; n < 5_000; n++) {
      const parts = Array.from({ length: randomInt(1, 10) }, () => {
        const kind = randomInt(4);
        if (kind === 0) return randomBytes(randomInt(8));
        if (kind === 1) return Buffer.from('a'.repeat(randomInt(250, 262)), 'latin1');
        return Buffer.from(kind === 2 ? pick(FRAGMENTS) : pick(SEPARATORS), 'latin1');
      });
      files.push(Buffer.concat(parts));
    }
    // Every byte in place of each letter and after each name: Latin-1 letters are not ASCII ones, in either case.
    for (const text of ['<script', '<!doctype', '<html>', '<svg a>']) {
      for (let at = 1; at <= text.length; at++) {
        for (let byte = 0; byte < 256; byte++) {
          const file = Buffer.from(`${text} x>`, 'latin1');
          file[at] = byte;
          files.push(file);
        }
      }
    }
    const differing = files.filter((file) => containsMarkup(file) !== MARKUP.test(file.toString('latin1'))).map((file) => file.toString('latin1'));
    expect(differing).toEqual([]);
    expect(files.filter(containsMarkup).length).toBeGreaterThan(files.length / 10);
  });
});
