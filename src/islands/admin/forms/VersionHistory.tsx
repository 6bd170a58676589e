/**
 * Version history: the published versions (number, date, who), one opened read-only as an outline
 * of its pages and questions, and "Copy into draft" (replaces the draft; undoable).
 */
import { useEffect, useState } from 'react';
import type { FormDraft } from '../../../shared/forms/definition.ts';
import type { FormVersion, FormVersionSummary } from '../../../shared/schemas/forms.ts';
import { apiGet } from '../../../platform/api.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { fullNameOf } from '../../../lib/user.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { typeLabel } from './catalog.ts';
import { conditionSummary, elementIndex } from './conditions.ts';

export interface VersionHistoryProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  formId: number;
  versions: readonly FormVersionSummary[];
  /** "Copy into draft": the version's definition replaces the draft. */
  onCopy: (version: FormVersion) => void;
}

type Opened = { kind: 'loading'; version: number } | { kind: 'failed'; version: number; message: string } | { kind: 'ready'; version: FormVersion };

export function VersionHistory({ open, onOpenChange, formId, versions, onCopy }: VersionHistoryProps) {
  const [opened, setOpened] = useState<Opened | null>(null);

  useEffect(() => {
    if (!open) setOpened(null);
  }, [open]);

  function openVersion(version: number) {
    setOpened({ kind: 'loading', version });
    apiGet<FormVersion>(`/api/admin/forms/${formId}/versions/${version}`)
      .then((data) => setOpened({ kind: 'ready', version: data }))
      .catch((error: unknown) => {
        if (!handleSessionLost(error)) setOpened({ kind: 'failed', version, message: errorMessage(error) });
      });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{opened ? `Version ${opened.kind === 'ready' ? opened.version.version : opened.version}` : 'Version history'}</DialogTitle>
          <DialogDescription>{opened ? 'A published version, read-only.' : 'Every published version, newest first.'}</DialogDescription>
        </DialogHeader>

        {opened === null &&
          (versions.length === 0 ? (
            <p className="text-sm text-muted-foreground">No version is published yet. Publish the draft to make version 1.</p>
          ) : (
            <ul className="flex flex-col divide-y divide-border rounded-lg border border-border">
              {versions.map((version) => (
                <li key={version.version} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                  <div className="flex flex-col gap-0.5">
                    <span className="font-medium">Version {version.version}</span>
                    <span className="text-sm text-muted-foreground">
                      <time dateTime={version.publishedAt}>{formatDateTime(version.publishedAt)}</time>
                      {version.publishedBy ? ` by ${fullNameOf(version.publishedBy)}` : ''}
                    </span>
                  </div>
                  <Button variant="outline" size="sm" onClick={() => openVersion(version.version)}>
                    Open version {version.version}
                  </Button>
                </li>
              ))}
            </ul>
          ))}

        {opened?.kind === 'loading' && <Loading label={`Loading version ${opened.version}…`} />}
        {opened?.kind === 'failed' && (
          <Failed title={`Version ${opened.version} could not be loaded`} message={opened.message} onRetry={() => openVersion(opened.version)} />
        )}
        {opened?.kind === 'ready' && <VersionOutline version={opened.version} />}

        {opened && (
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
            <Button variant="ghost" onClick={() => setOpened(null)}>
              Back to versions
            </Button>
            {opened.kind === 'ready' && (
              <Button
                onClick={() => {
                  onCopy(opened.version);
                  onOpenChange(false);
                }}
              >
                Copy into draft
              </Button>
            )}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** A version's pages and questions, with types, required marks and conditions. */
function VersionOutline({ version }: { version: FormVersion }) {
  const definition = version.definition;
  const index = elementIndex(definition as FormDraft);
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        <span className="font-medium">{definition.title}</span>
        <span className="text-muted-foreground">
          {' '}
          · published <time dateTime={version.publishedAt}>{formatDateTime(version.publishedAt)}</time>
          {version.publishedBy ? ` by ${fullNameOf(version.publishedBy)}` : ''}
        </span>
      </p>
      {definition.pages.map((page, pageIndex) => (
        <section key={page.id} aria-label={`Page ${pageIndex + 1}`} className="flex flex-col gap-2">
          <h3 className="font-semibold">
            Page {pageIndex + 1}
            {page.title?.trim() ? `: ${page.title.trim()}` : ''}
          </h3>
          {page.visibleIf && <p className="text-sm text-muted-foreground">{conditionSummary(page.visibleIf, index)}</p>}
          {page.elements.length === 0 ? (
            <p className="text-sm text-muted-foreground">No questions.</p>
          ) : (
            <ol className="flex flex-col gap-1.5">
              {page.elements.map((element) => (
                <li key={element.id} className="rounded-md border border-border px-3 py-2 text-sm">
                  <span className="font-medium">{element.title.trim() || element.id}</span>
                  <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                    <Badge variant="outline">{typeLabel(element.type)}</Badge>
                    <span className="font-mono">{element.id}</span>
                    {element.required && <Badge variant="secondary">Required</Badge>}
                  </span>
                  {element.visibleIf && <span className="mt-1 block text-muted-foreground">{conditionSummary(element.visibleIf, index)}</span>}
                </li>
              ))}
            </ol>
          )}
        </section>
      ))}
    </div>
  );
}
