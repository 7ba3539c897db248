import { HTTP_ROUTES } from '@vault/contracts';
import { describe, expect, it } from 'vitest';
import { resourceKey, routeKey, routeQuery } from './route-query';

describe('route query keys', () => {
  it('are the route URL cut into /api/<resource> and the parts after it', () => {
    expect(routeKey(HTTP_ROUTES.targets)).toEqual(['/api/targets']);
    expect(routeKey(HTTP_ROUTES.journalCount)).toEqual(['/api/journal', 'count']);
    expect(routeKey(HTTP_ROUTES.schedule, { date: '2026-11-27' })).toEqual(['/api/schedule', '2026-11-27']);
    expect(routeKey(HTTP_ROUTES.weeklyTemplatesForDay, { dayOfWeek: '3' })).toEqual(['/api/weekly-templates', '3']);
  });

  it('join back into the URL the default query function fetches, parameters encoded', () => {
    expect(routeKey(HTTP_ROUTES.schedule, { date: 'a/b?c' }).join('/')).toBe('/api/schedule/a%2Fb%3Fc');
    expect(routeQuery(HTTP_ROUTES.completedStudies).queryKey.join('/')).toBe(HTTP_ROUTES.completedStudies.path);
  });

  it('start with their resource key, so refreshing a resource refreshes every read below it', () => {
    expect(resourceKey(HTTP_ROUTES.schedule)).toEqual(['/api/schedule']);
    expect(routeKey(HTTP_ROUTES.completedStudies)[0]).toBe(routeKey(HTTP_ROUTES.studies)[0]);
    expect(routeKey(HTTP_ROUTES.journalCount)[0]).toBe(routeKey(HTTP_ROUTES.journal)[0]);
  });
});
