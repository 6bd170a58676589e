// @vitest-environment happy-dom
/**
 * Right to left (issue 31 §1): the Radix primitives that take a direction follow the page's, or
 * they would set `dir="ltr"` on themselves and stay left to right in Arabic (radio cards, tabs).
 */
import { createElement as h } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RadioGroup, RadioGroupItem } from '../../../src/components/ui/radio-group.tsx';
import { Tabs, TabsList, TabsTrigger } from '../../../src/components/ui/tabs.tsx';

afterEach(() => {
  cleanup();
  document.documentElement.lang = 'en';
});

function page() {
  render(
    h(
      'div',
      null,
      h(RadioGroup, { 'aria-label': 'Colour mode', defaultValue: 'light' }, h(RadioGroupItem, { value: 'light', 'aria-label': 'Light' })),
      h(Tabs, { defaultValue: 'one' }, h(TabsList, { 'aria-label': 'Views' }, h(TabsTrigger, { value: 'one' }, 'One'))),
    ),
  );
}

describe('the page’s direction in Radix primitives', () => {
  it('is right to left on an Arabic page', () => {
    document.documentElement.lang = 'ar';
    page();
    expect(screen.getByRole('radiogroup', { name: 'Colour mode' }).getAttribute('dir')).toBe('rtl');
    expect(screen.getByRole('tablist', { name: 'Views' }).closest('[dir]')?.getAttribute('dir')).toBe('rtl');
  });

  it('is left to right on a German page', () => {
    document.documentElement.lang = 'de';
    page();
    expect(screen.getByRole('radiogroup', { name: 'Colour mode' }).getAttribute('dir')).toBe('ltr');
  });
});
