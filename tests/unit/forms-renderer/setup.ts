/**
 * Shared by the renderer tests (each file starts with `// @vitest-environment happy-dom`):
 * React's act environment, cleanup after each test (vitest runs without globals, so Testing
 * Library cannot register it itself), and small builders.
 */
import { afterEach, vi } from 'vitest';
import { createElement } from 'react';
import { cleanup, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Answers, FormDefinition, FormElement, FormPage } from '../../../src/shared/forms/definition.ts';
import { FormRenderer, type FormRendererProps } from '../../../src/components/forms/FormRenderer.tsx';
import { createPreviewStore } from '../../../src/components/forms/preview-store.ts';
import { useStoreUploads } from '../../../src/components/forms/store-uploads.ts';
import type { FormMedia, MediaStore } from '../../../src/components/forms/types.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  cleanup();
});

/** A definition of these pages. */
export function form(...pages: FormPage[]): FormDefinition {
  return { schema: 'fieldwork.form/1', title: 'Test form', pages };
}

/** A page of these elements. */
export function page(id: string, title: string, elements: FormElement[], extra: Partial<FormPage> = {}): FormPage {
  return { id, title, elements, ...extra };
}

/** A renderer's media parts over `store`. */
export const mediaOf = (store: MediaStore): FormMedia => ({ store, useUploads: useStoreUploads });

/** Renders a renderer with an onSubmit spy (resolving), a preview's media store, and the other props given. */
export function renderForm(definition: FormDefinition, props: Partial<FormRendererProps> = {}) {
  const onSubmit = vi.fn<(answers: Answers) => Promise<void | { errors: Record<string, string[]> }>>(async () => undefined);
  const user = userEvent.setup();
  const result = render(
    createElement(FormRenderer, { definition, seed: 'seed-1', onSubmit, today: '2026-05-10', media: mediaOf(createPreviewStore()), ...props }),
  );
  return { ...result, user, onSubmit: (props.onSubmit as typeof onSubmit | undefined) ?? onSubmit };
}
