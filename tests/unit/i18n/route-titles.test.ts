import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../src/shared/routes.ts';
import { routeTitle } from '../../../src/shared/route-titles.ts';

describe('route titles (issue 31)', () => {
  it('are the route table’s titles in English', () => {
    for (const route of ROUTES) expect(routeTitle(route.pattern)).toBe(route.title);
  });
});
