import { FORM_SCHEMA_ID } from '../../../src/shared/forms/constants.ts';
import type { FormDefinition, FormElement, FormPage } from '../../../src/shared/forms/definition.ts';

/** A one-page form holding these elements. */
export function form(...elements: FormElement[]): FormDefinition {
  return { schema: FORM_SCHEMA_ID, title: 'Test form', pages: [{ id: 'page_1', title: 'First', elements }] };
}

/** A form with these pages. */
export function formWithPages(...pages: FormPage[]): FormDefinition {
  return { schema: FORM_SCHEMA_ID, title: 'Test form', pages };
}

export const options = (...ids: string[]) => ids.map((id) => ({ id, label: id.charAt(0).toUpperCase() + id.slice(1) }));

/** A deep copy to edit. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}
