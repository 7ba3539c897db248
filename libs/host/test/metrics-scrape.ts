/** One sample of a Prometheus exposition: `name{labels} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** What one GET of /metrics returned, read. */
export interface Scrape {
  text: string;
  /** Each family's name and type, from its `# TYPE` line. */
  families: Map<string, string>;
  samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseExposition(text: string): Scrape {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) families.set(type[1], type[2]);
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) labels[name] = value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return { text, families, samples };
}

export async function scrape(url: string): Promise<Scrape> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  if (!response.headers.get('content-type')?.startsWith('text/plain')) throw new Error(`${url}: content-type ${response.headers.get('content-type')}`);
  return parseExposition(await response.text());
}

/** The sum of a series' samples whose labels include `labels` (0 when there is none). */
export function sampleValue(scraped: Scrape, name: string, labels: Record<string, string> = {}): number {
  return scraped.samples
    .filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value))
    .reduce((sum, s) => sum + s.value, 0);
}

/** Whether the family has at least one sample (a family that only declared itself has none). */
export function hasSamples(scraped: Scrape, family: string): boolean {
  return scraped.samples.some((s) => s.name === family || s.name.startsWith(`${family}_`));
}
