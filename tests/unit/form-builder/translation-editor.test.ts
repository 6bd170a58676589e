// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createElement, useReducer } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FormDraft } from '../../../src/shared/forms/definition.ts';
import { builderReducer, initBuilderState } from '../../../src/islands/admin/forms/builder-state.ts';
import { translationCounts } from '../../../src/shared/forms/translations.ts';

vi.mock('../../../src/lib/session.ts', () => ({ handleSessionLost: () => false }));
const { TranslationEditor } = await import('../../../src/islands/admin/forms/TranslationEditor.tsx');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const start: FormDraft = {
  schema: 'fieldwork.form/1',
  title: 'Pets',
  language: 'en',
  languages: ['en', 'ar'],
  translations: { 'form.title': { ar: 'حيوانات' } },
  translatedFrom: { 'form.title': { ar: '00000000' } },
  pages: [{ id: 'p1', title: '', elements: [{ id: 'pet', type: 'short_text', title: 'Your pet?' }] }],
} as FormDraft;

let latest: FormDraft = start;

function Harness() {
  const [state, dispatch] = useReducer(builderReducer, start, (draft: FormDraft) => initBuilderState(draft));
  latest = state.draft;
  return createElement(TranslationEditor, {
    open: true,
    onOpenChange: () => undefined,
    draft: state.draft,
    language: 'ar',
    dispatch,
    announce: () => undefined,
    status: 'saved',
    disabled: false,
  });
}

afterEach(() => cleanup());

describe('the translation editor', () => {
  it('shows each source text beside a right-to-left field for Arabic; typing translates, "Still correct" clears an outdated mark', async () => {
    render(createElement(Harness));
    const user = userEvent.setup();
    expect(screen.getByRole('dialog', { name: 'Translate into Arabic' })).toBeTruthy();
    const field = screen.getByRole('textbox', { name: 'Arabic: Your pet?' });
    expect(field.getAttribute('dir')).toBe('rtl');
    expect(field.getAttribute('lang')).toBe('ar');
    expect(screen.getByText('Your pet?', { selector: 'p' }).getAttribute('lang')).toBe('en');
    expect(screen.getByText('Missing')).toBeTruthy();
    expect(screen.getByText('Outdated: the source text changed since')).toBeTruthy();

    await user.type(field, 'حيوانك؟');
    expect(latest.translations).toMatchObject({ 'elements.pet.title': { ar: 'حيوانك؟' } });
    expect(screen.queryByText('Missing')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'The translation of “Pets” is still correct' }));
    expect(screen.queryByText('Outdated: the source text changed since')).toBeNull();
    expect(translationCounts(latest)).toEqual([{ language: 'ar', total: 2, translated: 2, missing: 0, outdated: 0 }]);
  });

  it('imports a CSV by key, lists what it did not apply, and says why a malformed file is refused', async () => {
    const { container } = render(createElement(Harness));
    const user = userEvent.setup({ applyAccept: false });
    const input = container.ownerDocument.querySelector<HTMLInputElement>('input[type="file"]')!;
    const csv =
      '\ufeffkey,kind,source,translation\r\nelements.pet.title,title,Your pet?,حيوانك؟\r\nelements.gone.title,title,Gone,ذهب\r\nform.title,title,Animals,حيوانات\r\n';
    await user.upload(input, new File([csv], 'pets-ar.csv', { type: 'text/csv' }));
    expect(await screen.findByText('Translations imported: 1')).toBeTruthy();
    expect(screen.getByText('Row 3: elements.gone.title')).toBeTruthy();
    expect(screen.getByText('Row 4: form.title')).toBeTruthy();
    expect(latest.translations).toEqual({ 'form.title': { ar: 'حيوانات' }, 'elements.pet.title': { ar: 'حيوانك؟' } });

    await user.upload(input, new File(['key,translation\n"broken,x\n'], 'broken.csv', { type: 'text/csv' }));
    expect(await screen.findByText('This file cannot be imported')).toBeTruthy();
    expect(screen.getByText(/Row 2 opens a quote/)).toBeTruthy();
  });
});
