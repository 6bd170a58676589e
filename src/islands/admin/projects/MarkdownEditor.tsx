/**
 * A Markdown text area with "Write" and "Preview" tabs (the preview is the same `Markdown`
 * component members see) and "Insert image": the chosen picture is uploaded through
 * `POST /api/media` and `![description](/api/media/{id})` is inserted where the cursor was, with
 * "description" selected so the author types what the image shows.
 */
import { useId, useRef, useState, type Ref } from 'react';
import { MEDIA_ACCEPT, MEDIA_LIMITS, MEDIA_MESSAGES, type MediaUploaded } from '../../../shared/media.ts';
import { uploadForJson } from '../../../platform/upload.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { Markdown } from '../../../components/forms/Markdown.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { describedBy, FieldError } from '../../../components/ui/form-field.tsx';
import { HiddenFileInput } from '../../../components/ui/hidden-file-input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { insertAt } from './markdown-insert.ts';
import { m } from '../../../shared/i18n.ts';

/** Uploads one file as multipart `file`; the API's error message when it refuses. */
export function uploadMedia(file: File): Promise<MediaUploaded> {
  const body = new FormData();
  body.append('file', file);
  return uploadForJson<MediaUploaded>('/api/media', body, { refusedMessage: m.projects_markdown_upload_refused() });
}

export function MarkdownEditor({
  id,
  label,
  description,
  value,
  onChange,
  onBlur,
  error,
  textareaRef,
  rows = 10,
  images = true,
}: {
  id: string;
  label: string;
  description?: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
  textareaRef?: Ref<HTMLTextAreaElement>;
  rows?: number;
  /** "Insert image" (uploads shown to members): off where members may not see uploads (announcements). */
  images?: boolean;
}) {
  const [tab, setTab] = useState('write');
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const area = useRef<HTMLTextAreaElement | null>(null);
  const selection = useRef<{ start: number; end: number } | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const helpId = useId();
  const descriptionId = description ? `${id}-description` : undefined;
  const errorId = error ? `${id}-error` : undefined;

  function setArea(node: HTMLTextAreaElement | null) {
    area.current = node;
    if (typeof textareaRef === 'function') textareaRef(node);
    else if (textareaRef) (textareaRef as { current: HTMLTextAreaElement | null }).current = node;
  }

  function rememberSelection() {
    const node = area.current;
    if (node) selection.current = { start: node.selectionStart, end: node.selectionEnd };
  }

  async function onFile(picked: File | undefined) {
    if (!picked) return;
    setUploadError(null);
    if (picked.size > MEDIA_LIMITS.maxBytes) {
      setUploadError(MEDIA_MESSAGES.tooLarge);
      return;
    }
    setUploading(true);
    setStatus(m.projects_markdown_uploading({ name: picked.name }));
    try {
      const media = await uploadMedia(picked);
      const at = selection.current ?? { start: value.length, end: value.length };
      const placeholder = m.projects_markdown_image_placeholder();
      const result = insertAt(value, at, `![${placeholder}](/api/media/${media.id})`, placeholder);
      onChange(result.text);
      setTab('write');
      setStatus(m.projects_markdown_inserted({ placeholder }));
      requestAnimationFrame(() => {
        const node = area.current;
        if (!node) return;
        node.focus();
        node.setSelectionRange(result.selectStart, result.selectEnd);
      });
    } catch (failure) {
      if (handleSessionLost(failure)) return;
      setUploadError(errorMessage(failure));
      setStatus('');
    } finally {
      setUploading(false);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      {description && (
        <p id={descriptionId} className="text-sm text-muted-foreground">
          {description}
        </p>
      )}
      <Tabs value={tab} onValueChange={setTab} className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <TabsList aria-label={m.projects_markdown_tabs({ label })}>
            <TabsTrigger value="write">{m.projects_markdown_write()}</TabsTrigger>
            <TabsTrigger value="preview">{m.projects_markdown_preview()}</TabsTrigger>
          </TabsList>
          {images && (
            <>
              <Button
                variant="outline"
                size="sm"
                loading={uploading}
                onMouseDown={rememberSelection}
                onClick={() => {
                  rememberSelection();
                  file.current?.click();
                }}
              >
                {m.projects_markdown_insert_image()}
              </Button>
              <HiddenFileInput ref={file} accept={MEDIA_ACCEPT} onFile={(picked) => void onFile(picked)} />
            </>
          )}
        </div>
        <TabsContent value="write" forceMount className="data-[state=inactive]:hidden">
          <Textarea
            ref={setArea}
            id={id}
            rows={rows}
            value={value}
            className="font-mono text-sm"
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy(descriptionId, helpId, errorId)}
            onChange={(event) => onChange(event.target.value)}
            onBlur={() => {
              rememberSelection();
              onBlur?.();
            }}
            onSelect={rememberSelection}
          />
        </TabsContent>
        <TabsContent value="preview" className="min-h-40 rounded-md border border-border bg-card p-4">
          {value.trim() ? <Markdown headingLevel={3}>{value}</Markdown> : <p className="text-sm text-muted-foreground">{m.projects_markdown_nothing()}</p>}
        </TabsContent>
      </Tabs>
      <p id={helpId} className="text-xs text-muted-foreground">
        {m.projects_markdown_help()}
      </p>
      <p role="status" className="sr-only">
        {status}
      </p>
      {uploadError && <Alert variant="destructive">{uploadError}</Alert>}
      {error && errorId && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
}
