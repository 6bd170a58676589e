/**
 * Version history: the published versions (number, date, who), one opened read-only as an outline
 * of its pages and questions, and "Copy into draft" (replaces the draft; undoable).
 */
import { useEffect, useState, type ReactNode } from 'react';
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
import { withNodes } from '../../../components/forms/rich-text.tsx';
import { typeLabel } from './catalog.ts';
import { conditionSummary, elementIndex } from './conditions.ts';
import { pageName } from './catalog.ts';
import { formatCount, m } from '../../../shared/i18n.ts';

export interface VersionHistoryProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  formId: number;
  versions: readonly FormVersionSummary[];
  /** "Copy into draft": the version's definition replaces the draft. */
  onCopy: (version: FormVersion) => void;
}

/**
 * When (and by whom) a version was published: "12 May 2026, 10:00 by Ada Lovelace"; in the
 * outline, "published 12 May 2026, 10:00 by Ada Lovelace".
 */
function publishedWhen(version: FormVersionSummary, outline: boolean): ReactNode {
  const date = <time dateTime={version.publishedAt}>{formatDateTime(version.publishedAt)}</time>;
  const by = version.publishedBy;
  if (!by) return outline ? withNodes((marks) => m.forms_versions_outline_published({ date: marks.date }), { date }) : date;
  const name = fullNameOf(by);
  return withNodes(
    (marks) => (outline ? m.forms_versions_outline_published_by({ date: marks.date, name }) : m.forms_versions_published_by({ date: marks.date, name })),
    { date },
  );
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
          <DialogTitle>
            {opened
              ? m.forms_versions_version({ version: formatCount(opened.kind === 'ready' ? opened.version.version : opened.version) })
              : m.forms_versions_title()}
          </DialogTitle>
          <DialogDescription>{opened ? m.forms_versions_opened_description() : m.forms_versions_description()}</DialogDescription>
        </DialogHeader>

        {opened === null &&
          (versions.length === 0 ? (
            <p className="text-sm text-muted-foreground">{m.forms_versions_none({ version: formatCount(1) })}</p>
          ) : (
            <ul className="flex flex-col divide-y divide-border rounded-lg border border-border">
              {versions.map((version) => (
                <li key={version.version} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                  <div className="flex flex-col gap-0.5">
                    <span className="font-medium">{m.forms_versions_version({ version: formatCount(version.version) })}</span>
                    <span className="text-sm text-muted-foreground">{publishedWhen(version, false)}</span>
                  </div>
                  <Button variant="outline" size="sm" onClick={() => openVersion(version.version)}>
                    {m.forms_versions_open({ version: formatCount(version.version) })}
                  </Button>
                </li>
              ))}
            </ul>
          ))}

        {opened?.kind === 'loading' && <Loading label={m.forms_versions_loading({ version: formatCount(opened.version) })} />}
        {opened?.kind === 'failed' && (
          <Failed
            title={m.forms_versions_load_failed({ version: formatCount(opened.version) })}
            message={opened.message}
            onRetry={() => openVersion(opened.version)}
          />
        )}
        {opened?.kind === 'ready' && <VersionOutline version={opened.version} />}

        {opened && (
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
            <Button variant="ghost" onClick={() => setOpened(null)}>
              {m.forms_versions_back()}
            </Button>
            {opened.kind === 'ready' && (
              <Button
                onClick={() => {
                  onCopy(opened.version);
                  onOpenChange(false);
                }}
              >
                {m.forms_versions_copy()}
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
          {' · '}
          {publishedWhen(version, true)}
        </span>
      </p>
      {definition.pages.map((page, pageIndex) => (
        <section key={page.id} aria-label={m.forms_page_name({ page: formatCount(pageIndex + 1) })} className="flex flex-col gap-2">
          <h3 className="font-semibold">{pageName(page, pageIndex)}</h3>
          {page.visibleIf && <p className="text-sm text-muted-foreground">{conditionSummary(page.visibleIf, index)}</p>}
          {page.elements.length === 0 ? (
            <p className="text-sm text-muted-foreground">{m.forms_versions_no_questions()}</p>
          ) : (
            <ol className="flex flex-col gap-1.5">
              {page.elements.map((element) => (
                <li key={element.id} className="rounded-md border border-border px-3 py-2 text-sm">
                  <span className="font-medium">{element.title.trim() || element.id}</span>
                  <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                    <Badge variant="outline">{typeLabel(element.type)}</Badge>
                    <span className="font-mono">{element.id}</span>
                    {element.required && <Badge variant="secondary">{m.forms_panel_required()}</Badge>}
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
