import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEventBus } from './events/events.module.js';
import { InProcessEventBus } from './events/in-process.event-bus.js';

const src = dirname(fileURLToPath(import.meta.url));

/**
 * The modules a file loads when it is loaded: its static imports that are
 * not `import type` (erased by the compiler) and its `export ... from`s.
 * A dynamic `import()` is not one of them.
 */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?([^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) {
    const [, , typeOnly, clause, specifier] = m;
    if (typeOnly) continue;
    // `import { type A, type B } from` is erased too.
    if (clause && /^\{\s*(type\s+\w+\s*,?\s*)+\}\s+from\s+$/.test(`${clause.trim()} `)) continue;
    found.push(specifier);
  }
  return found;
}

/** Every package the entry loads through its own files, following relative imports. */
function packagesLoadedBy(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return packages;
}

describe('the transport loads the NATS client only when a process asks for NATS', () => {
  it('its entry point imports no @nats-io package, statically, anywhere below it', () => {
    const loaded = [...packagesLoadedBy(join(src, 'index.ts'))];
    // The walk does see packages (a control): the framework, for one.
    expect(loaded).toEqual(expect.arrayContaining(['@nestjs/common', '@nestjs/microservices']));
    expect(loaded.filter((name) => name.startsWith('@nats-io/'))).toEqual([]);
  });

  it('the JetStream bus, which does import it, is reached only through import()', () => {
    expect([...packagesLoadedBy(join(src, 'events/jetstream.event-bus.ts'))]).toEqual(
      expect.arrayContaining(['@nats-io/jetstream', '@nats-io/transport-node']),
    );
    expect(readFileSync(join(src, 'events/events.module.ts'), 'utf8')).toContain("await import('./jetstream.event-bus.js')");
  });

  it('an in-process bus is made without it', async () => {
    const bus = await createEventBus({ kind: 'in-process' });
    expect(bus).toBeInstanceOf(InProcessEventBus);
    await bus.close();
  });
});
