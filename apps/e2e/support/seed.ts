// A vault with something in every list, made through the API with the page's
// session, so that screens are measured with the data a real owner has.
import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** A suffix that keeps one test's rows apart from another's in the shared vault. */
export function tag(): string {
  return randomBytes(3).toString('hex');
}

/** Sends a JSON call and returns its parsed answer, failing the test on a refusal. */
export async function api<T = unknown>(request: APIRequestContext, method: 'POST' | 'PATCH' | 'DELETE' | 'GET', path: string, data?: unknown): Promise<T> {
  const response = await request.fetch(path, { method, ...(data === undefined ? {} : { data }) });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const todayUtc = (): string => new Date().toISOString().slice(0, 10);
export const todayWeekday = (): number => new Date().getUTCDay();

export interface Seeded {
  target: string;
  journalTitle: string;
  study: string;
  mission: string;
  template: string;
}

/**
 * Long words and long lines on purpose: a phone must wrap them, never draw
 * them over their neighbours.
 */
export async function seedVault(page: Page): Promise<Seeded> {
  const t = tag();
  const request = page.request;
  const target = `Infiltrate the northern perimeter checkpoint ${t}`;
  const done = await api<{ id: string }>(request, 'POST', '/api/targets', {
    title: `Decode the intercepted transmission ${t}`,
    description: 'Frequencies 4.2 and 7.9 MHz; cross-check with the morning log.',
  });
  await api(request, 'PATCH', `/api/targets/${done.id}`, { completed: true });
  await api(request, 'POST', '/api/targets', { title: target, description: 'Two guards at dawn.' });

  const journalTitle = `Operation Nightfall debrief ${t}`;
  await api(request, 'POST', '/api/journal', {
    title: journalTitle,
    content: 'First line of the field report.\nSecond line, with a somewhat longer sentence that has to wrap on a phone screen.',
  });

  const study = `Cryptography fundamentals ${t}`;
  await api(request, 'POST', '/api/studies', { subject: study, endGoal: 'Break a Vigenère cipher by hand in under ten minutes' });
  const archived = await api<{ id: string }>(request, 'POST', '/api/studies', {
    subject: `Morse code ${t}`,
    endGoal: 'Send and receive at 15 words per minute',
  });
  await api(request, 'PATCH', `/api/studies/${archived.id}`, { completed: true });

  const mission = `Map every exit of the building ${t}`;
  await api(request, 'POST', '/api/activities', { title: mission, description: 'Stairs, fire escapes and the roof access.' });

  const template = `Morning perimeter briefing ${t}`;
  for (const dayOfWeek of new Set([1, todayWeekday()])) {
    await api(request, 'POST', '/api/weekly-templates', {
      title: template,
      time: '07:30',
      dayOfWeek,
      description: 'Coffee, maps and the day\u2019s objectives.',
      isRepeating: true,
    });
    await api(request, 'POST', '/api/weekly-templates', { title: `One-time supply drop ${t}`, time: '16:45', dayOfWeek, isRepeating: false });
  }
  const items = await api<{ id: string; completed: boolean }[]>(request, 'POST', '/api/schedule/apply-weekly-template', { date: todayUtc() });
  const open = items.find((item) => !item.completed);
  if (open) await api(request, 'PATCH', `/api/schedule/${open.id}`, { completed: true });
  await api(request, 'POST', '/api/bonaparte/subtract', { amount: 1234.5 });
  return { target, journalTitle, study, mission, template };
}
