// @vitest-environment happy-dom
import './setup.ts';
import { createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AnswersView } from '../../../src/components/forms/AnswersView.tsx';
import { form, page } from './setup.ts';

const definition = form(
  page('p1', 'One', [
    { id: 'intro', type: 'statement', title: 'Welcome', body: 'Hi' },
    { id: 'name', type: 'short_text', title: 'Name' },
    { id: 'fruit', type: 'single_choice', title: 'Fruit', allowOther: true, options: [{ id: 'apple', label: 'Apple' }] },
    {
      id: 'drinks',
      type: 'multiple_choice',
      title: 'Drinks',
      allowOther: true,
      options: [
        { id: 'tea', label: 'Tea' },
        { id: 'milk', label: 'Milk' },
      ],
    },
    { id: 'stars', type: 'rating', title: 'Stars', max: 5 },
    { id: 'weight', type: 'number', title: 'Weight', unit: 'kg' },
    { id: 'day', type: 'date', title: 'Day' },
    { id: 'ok', type: 'consent', title: 'Consent', statement: 'I agree' },
    { id: 'secret', type: 'short_text', title: 'Only for tea drinkers', visibleIf: { ref: 'drinks', op: 'includes_any', value: ['tea'] } },
  ]),
  page('p2', 'Two', [
    {
      id: 'rank',
      type: 'ranking',
      title: 'Rank',
      options: [
        { id: 'a', label: 'Alpha' },
        { id: 'b', label: 'Beta' },
      ],
    },
    {
      id: 'grid',
      type: 'matrix',
      title: 'Grid',
      rows: [
        { id: 'r1', label: 'Taste' },
        { id: 'r2', label: 'Price' },
      ],
      columns: [
        { id: 'good', label: 'Good' },
        { id: 'bad', label: 'Bad' },
      ],
    },
    { id: 'shots', type: 'photo', title: 'Photos', maxFiles: 3 },
    { id: 'empty', type: 'long_text', title: 'Anything else' },
  ]),
);

const answers = {
  name: 'Ada',
  fruit: { other: 'Kiwi' },
  drinks: ['milk', { other: 'Cocoa' }],
  stars: 4,
  weight: 1250.5,
  day: '2026-03-05',
  ok: true,
  secret: 'hidden answer',
  rank: ['b', 'a'],
  grid: { r1: 'good' },
  shots: ['m1', 'm2'],
};

/** The description list as [term, description] pairs. */
function pairs(container: HTMLElement) {
  return [...container.querySelectorAll('dl > div')].map((row) => [row.querySelector('dt')?.textContent, row.querySelector('dd')] as const);
}

describe('AnswersView', () => {
  it('lists each visible question in order with its answer in words', () => {
    const { container } = render(createElement(AnswersView, { definition, answers }));
    const rows = pairs(container);
    expect(rows.map(([term]) => term)).toEqual(['Name', 'Fruit', 'Drinks', 'Stars', 'Weight', 'Day', 'Consent', 'Rank', 'Grid', 'Photos', 'Anything else']);
    const text = Object.fromEntries(rows.map(([term, dd]) => [term, dd?.textContent]));
    expect(text).toMatchObject({
      Name: 'Ada',
      Fruit: 'Other: Kiwi',
      Drinks: 'MilkOther: Cocoa',
      Stars: '4 of 5',
      Weight: '1,250.5 kg',
      Day: 'Mar 5, 2026',
      Consent: 'Agreed',
      Photos: '2 photos',
      'Anything else': 'Not answered',
    });
    const dd = (term: string) => rows.find(([name]) => name === term)?.[1] as HTMLElement;
    expect(
      within(dd('Rank'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Beta', 'Alpha']);
    expect(dd('Rank').querySelector('ol')).not.toBeNull();
    expect(
      within(dd('Grid'))
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['TasteGood', 'PriceNot answered']);
  });

  it('shows photo thumbnails that open the photo', async () => {
    const onOpenPhoto = vi.fn();
    render(createElement(AnswersView, { definition, answers, photos: { thumbnailUrl: (id: string) => `/media/${id}/thumb.jpg` }, onOpenPhoto }));
    const second = screen.getByRole('img', { name: 'Photo 2 of 2' });
    expect(second.getAttribute('src')).toBe('/media/m2/thumb.jpg');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Photo 2 of 2' }));
    expect(onOpenPhoto).toHaveBeenCalledWith('m2');
  });

  it('plays ready videos with their poster and length; says when one is processing or failed', () => {
    const clips = form(page('p1', 'One', [{ id: 'clip', type: 'video', title: 'Clip', maxFiles: 3, maxSeconds: 180 }]));
    const { container } = render(
      createElement(AnswersView, {
        definition: clips,
        answers: { clip: ['v1', 'v2', 'v3'] },
        videos: [
          { id: 'v1', status: 'ready', failureReason: null, durationMs: 95_000 },
          { id: 'v2', status: 'processing', failureReason: null, durationMs: null },
          { id: 'v3', status: 'failed', failureReason: 'Too dark', durationMs: null },
        ],
      }),
    );
    const players = container.querySelectorAll('video');
    expect(players).toHaveLength(1);
    expect(players[0]?.getAttribute('aria-label')).toBe('Video 1 of 3');
    expect(players[0]?.getAttribute('poster')).toBe('/api/media/v1/poster');
    expect(players[0]?.getAttribute('preload')).toBe('none');
    expect(players[0]?.querySelector('source')?.getAttribute('src')).toBe('/api/media/v1/video');
    expect(screen.getByText('Length: 1 minute 35 seconds')).toBeTruthy();
    expect(screen.getByText('Video 2 of 3: This video is still being processed.')).toBeTruthy();
    expect(screen.getByText('Video 3 of 3: This video could not be processed: Too dark')).toBeTruthy();
  });
});
