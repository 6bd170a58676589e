/**
 * /admin/integrations/docs (issue 32 §3; admins): the token API's reference, read from
 * `GET /api/openapi.json` and laid out by our own code (`reference.ts`; no third-party script, no
 * CDN): how to call it, then every operation — method and path, summary and description, the scope
 * it needs, its parameters, its body and answers as field tables with an example — and the webhooks:
 * how a delivery is signed and each event's payload. The description's own texts are English (it is
 * generated from the routes' schemas); the page's words are in the page's language.
 */
import { Fragment, type ReactNode } from 'react';
import { useResource } from '../../../lib/resource.ts';
import { cn } from '../../../lib/utils.ts';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Section, TableHead, TableScroller, td } from '../admin-kit.tsx';
import { currentLanguage, m } from '../../../shared/i18n.ts';
import { SOURCE_LANGUAGE } from '../../../shared/languages.ts';
import type { WebhookEventType } from '../../../shared/webhooks.ts';
import { AdminsOnly, Code } from './kit.tsx';
import { EVENT_TEXT, EVENT_TYPES, SCOPE_TEXT } from './logic.ts';
import {
  basePath,
  exampleOf,
  fieldRows,
  inlineParts,
  jsonSchemaOf,
  operationsOf,
  webhooksOf,
  type OpenApiDocument,
  type Operation,
  type ParameterObject,
  type SchemaObject,
} from './reference.ts';

/** The island of /admin/integrations/docs. */
export default function ApiReference() {
  return (
    <AdminsOnly loadingLabel={m.integrations_reference_loading()}>
      <Reference />
    </AdminsOnly>
  );
}

/** A description's text, its `code` shown as code; paragraphs at blank lines. */
function Prose({ text, className }: { text: string | undefined; className?: string }) {
  if (!text) return null;
  return (
    <div className={cn('flex flex-col gap-2 text-sm', className)} dir="ltr" lang="en">
      {text.split(/\n{2,}/).map((paragraph, index) => (
        <p key={index} className="text-start">
          {inlineParts(paragraph).map((part, at) =>
            part.code ? (
              <code key={at} className="rounded bg-muted px-1 py-0.5 font-mono text-xs wrap-anywhere">
                {part.text}
              </code>
            ) : (
              <Fragment key={at}>{part.text}</Fragment>
            ),
          )}
        </p>
      ))}
    </div>
  );
}

const METHOD_CLASSES: Readonly<Record<string, string>> = {
  get: 'bg-secondary text-secondary-foreground',
  post: 'bg-primary text-primary-foreground',
  put: 'bg-primary text-primary-foreground',
  patch: 'bg-primary text-primary-foreground',
  delete: 'bg-destructive text-white',
};

function Method({ method }: { method: string }) {
  return (
    <span className={cn('inline-flex h-6 items-center rounded px-2 font-mono text-xs font-bold uppercase', METHOD_CLASSES[method] ?? 'bg-muted')}>
      {method}
    </span>
  );
}

/** An example as JSON in a code block. */
function Example({ value, label }: { value: unknown; label: string }) {
  return (
    <figure className="flex flex-col gap-1">
      <figcaption className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{label}</figcaption>
      <pre dir="ltr" className="max-w-full rounded-md bg-muted p-3 text-start font-mono text-xs break-all whitespace-pre-wrap">
        {JSON.stringify(value, null, 2)}
      </pre>
    </figure>
  );
}

/** A schema's fields as a table: name, type (and limits), required, description (and values). */
function FieldTable({ document, schema, caption }: { document: OpenApiDocument; schema: SchemaObject; caption: string }) {
  const rows = fieldRows(document, schema);
  if (rows.length === 0) {
    return (
      <p className="text-sm">
        <Code>{exampleType(document, schema)}</Code>
      </p>
    );
  }
  return (
    <TableScroller label={caption}>
      <table className="w-full min-w-[40rem] border-collapse">
        <caption className="sr-only">{caption}</caption>
        <TableHead
          columns={[
            m.integrations_ref_field(),
            m.integrations_ref_type(),
            m.integrations_ref_required(),
            { label: m.integrations_ref_description(), className: 'w-1/2' },
          ]}
        />
        <tbody>
          {rows.map((row) => (
            <tr key={row.name}>
              <td className={td}>
                <code dir="ltr" className="font-mono text-xs font-semibold break-all">
                  {row.name}
                </code>
              </td>
              <td className={td}>
                <span dir="ltr" className="flex flex-col gap-0.5 text-start">
                  <code className="font-mono text-xs break-all">{row.type}</code>
                  {row.limits.length > 0 && <span className="font-mono text-xs text-muted-foreground">{row.limits.join(', ')}</span>}
                </span>
              </td>
              <td className={cn(td, 'whitespace-nowrap')}>
                {row.required ? m.integrations_ref_yes() : <span className="text-muted-foreground">{m.integrations_ref_no()}</span>}
              </td>
              <td className={td}>
                <Prose text={row.description} />
                {row.values.length > 0 && (
                  <p className="mt-1 flex flex-wrap items-baseline gap-1 text-xs text-muted-foreground">
                    {m.integrations_ref_one_of()}
                    {row.values.map((value) => (
                      <Code key={value}>{value}</Code>
                    ))}
                  </p>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroller>
  );
}

/** What a schema without fields is (a plain value's type). */
function exampleType(document: OpenApiDocument, schema: SchemaObject): string {
  const value = exampleOf(document, schema);
  return Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
}

function Parameters({ parameters, caption }: { parameters: readonly ParameterObject[]; caption: string }) {
  return (
    <TableScroller label={caption}>
      <table className="w-full min-w-[40rem] border-collapse">
        <caption className="sr-only">{caption}</caption>
        <TableHead
          columns={[
            m.integrations_ref_name(),
            m.integrations_ref_in(),
            m.integrations_ref_type(),
            m.integrations_ref_required(),
            { label: m.integrations_ref_description(), className: 'w-1/2' },
          ]}
        />
        <tbody>
          {parameters.map((parameter) => (
            <tr key={`${parameter.in}-${parameter.name}`}>
              <td className={td}>
                <code dir="ltr" className="font-mono text-xs font-semibold break-all">
                  {parameter.name}
                </code>
              </td>
              <td className={td}>
                <Code>{parameter.in}</Code>
              </td>
              <td className={td}>
                <code dir="ltr" className="font-mono text-xs break-all">
                  {parameter.schema?.type ?? 'string'}
                </code>
                {parameter.schema?.enum && (
                  <span className="mt-1 flex flex-wrap gap-1">
                    {parameter.schema.enum.map((value) => (
                      <Code key={String(value)}>{String(value)}</Code>
                    ))}
                  </span>
                )}
              </td>
              <td className={cn(td, 'whitespace-nowrap')}>
                {parameter.required ? m.integrations_ref_yes() : <span className="text-muted-foreground">{m.integrations_ref_no()}</span>}
              </td>
              <td className={td}>
                <Prose text={parameter.description ?? parameter.schema?.description} />
                {parameter.schema && (parameter.schema.minimum !== undefined || parameter.schema.default !== undefined) && (
                  <p dir="ltr" className="mt-1 text-start font-mono text-xs text-muted-foreground">
                    {[
                      parameter.schema.minimum !== undefined && parameter.schema.maximum !== undefined
                        ? `${parameter.schema.minimum} … ${parameter.schema.maximum}`
                        : null,
                      parameter.schema.default !== undefined ? `default ${JSON.stringify(parameter.schema.default)}` : null,
                    ]
                      .filter(Boolean)
                      .join(', ')}
                  </p>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroller>
  );
}

/** "Scope: responses:read — Read a survey's responses", or "Any token". */
function Scope({ scopes }: { scopes: readonly string[] }) {
  if (scopes.length === 0) return <p className="text-sm">{m.integrations_ref_any_token()}</p>;
  return (
    <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm">
      <span className="font-medium">{m.integrations_ref_scope()}</span>
      {scopes.map((scope) => (
        <span key={scope} className="inline-flex flex-wrap items-baseline gap-x-2">
          <Code>{scope}</Code>
          {scope in SCOPE_TEXT && <span className="text-muted-foreground">{SCOPE_TEXT[scope as keyof typeof SCOPE_TEXT]()}</span>}
        </span>
      ))}
    </p>
  );
}

function SubHeading({ children }: { children: ReactNode }) {
  return <h4 className="text-sm font-semibold">{children}</h4>;
}

function OperationBlock({ document, entry, base }: { document: OpenApiDocument; entry: Operation; base: string }) {
  const { operation } = entry;
  const path = `${base}${entry.path}`;
  // Captions name the call by method and path: two calls may share a path.
  const call = `${entry.method.toUpperCase()} ${path}`;
  const body = jsonSchemaOf(operation.requestBody?.content);
  const responses = Object.entries(operation.responses ?? {});
  return (
    <article
      id={entry.id}
      aria-labelledby={`${entry.id}-heading`}
      className="flex scroll-mt-20 flex-col gap-4 border-t border-border pt-6 first:border-t-0 first:pt-0"
    >
      <div className="flex flex-col gap-2">
        <h3 id={`${entry.id}-heading`} className="flex flex-wrap items-center gap-2 text-base font-semibold" dir="ltr">
          <Method method={entry.method} />
          <code className="font-mono text-sm break-all">{path}</code>
        </h3>
        {operation.summary && (
          <p className="text-sm font-medium" dir="ltr" lang="en">
            <span className="block text-start">{operation.summary}</span>
          </p>
        )}
        <Prose text={operation.description} className="text-muted-foreground" />
        <Scope scopes={entry.scopes} />
      </div>
      {operation.parameters && operation.parameters.length > 0 && (
        <div className="flex flex-col gap-2">
          <SubHeading>{m.integrations_ref_parameters()}</SubHeading>
          <Parameters parameters={operation.parameters} caption={m.integrations_ref_parameters_of({ path: call })} />
        </div>
      )}
      {body && (
        <div className="flex flex-col gap-2">
          <SubHeading>{m.integrations_ref_request_body()}</SubHeading>
          <FieldTable document={document} schema={body} caption={m.integrations_ref_body_of({ path: call })} />
          <Example value={exampleOf(document, body)} label={m.integrations_ref_example_request()} />
        </div>
      )}
      <div className="flex flex-col gap-3">
        <SubHeading>{m.integrations_ref_responses()}</SubHeading>
        <ul className="flex flex-col gap-3">
          {responses.map(([status, response]) => {
            const schema = status.startsWith('2') ? jsonSchemaOf(response.content) : null;
            return (
              <li key={status} className="flex flex-col gap-2">
                <div className="flex flex-wrap items-baseline gap-2">
                  <Code className={cn('text-sm font-semibold', !status.startsWith('2') && 'text-destructive')}>{status}</Code>
                  <Prose text={response.description} className="min-w-0 flex-1" />
                </div>
                {schema && (
                  <>
                    <FieldTable document={document} schema={schema} caption={m.integrations_ref_answer_of({ status, path: call })} />
                    <Example value={exampleOf(document, schema)} label={m.integrations_ref_example_answer()} />
                  </>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </article>
  );
}

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', text: m.integrations_ref_header_id },
  { name: 'webhook-timestamp', text: m.integrations_ref_header_timestamp },
  { name: 'webhook-signature', text: m.integrations_ref_header_signature },
] as const;

function Webhooks({ document }: { document: OpenApiDocument }) {
  const described = new Map(webhooksOf(document).map((hook) => [hook.type, hook]));
  // Our events in their order, then any other the description holds (the test event).
  const types = [...EVENT_TYPES, ...[...described.keys()].filter((type) => !(EVENT_TYPES as string[]).includes(type))];
  return (
    <Section id="webhooks" title={m.integrations_ref_webhooks_title()} description={m.integrations_ref_webhooks_description()}>
      <div className="flex flex-col gap-2">
        <h3 className="text-base font-semibold">{m.integrations_ref_signing_title()}</h3>
        <p className="text-sm">{m.integrations_ref_signing_text()}</p>
        <dl className="flex flex-col gap-2 text-sm">
          {SIGNATURE_HEADERS.map((header) => (
            <div key={header.name} className="flex flex-col gap-0.5 sm:flex-row sm:gap-3">
              <dt className="shrink-0 sm:w-44">
                <Code>{header.name}</Code>
              </dt>
              <dd className="text-muted-foreground">{header.text()}</dd>
            </div>
          ))}
        </dl>
        <p className="text-sm text-muted-foreground">{m.integrations_ref_retries()}</p>
      </div>
      <div className="flex flex-col gap-6">
        {types.map((type) => {
          const hook = described.get(type);
          const id = `event-${type.replace(/[^a-z0-9]+/gi, '-')}`;
          return (
            <article key={type} id={id} aria-labelledby={`${id}-heading`} className="flex scroll-mt-20 flex-col gap-3 border-t border-border pt-5">
              <h3 id={`${id}-heading`} className="text-base font-semibold">
                <Code className="text-sm">{type}</Code>
              </h3>
              {type in EVENT_TEXT ? (
                <p className="text-sm">{EVENT_TEXT[type as WebhookEventType]()}</p>
              ) : (
                <Prose text={hook?.operation.description ?? hook?.operation.summary} />
              )}
              {hook?.body && (
                <>
                  <FieldTable document={document} schema={hook.body} caption={m.integrations_ref_payload_of({ type })} />
                  <Example value={exampleOf(document, hook.body)} label={m.integrations_ref_example_payload()} />
                </>
              )}
            </article>
          );
        })}
        {described.size === 0 && <p className="text-sm text-muted-foreground">{m.integrations_ref_no_payloads()}</p>}
      </div>
    </Section>
  );
}

function Reference() {
  const { load, reload } = useResource<OpenApiDocument>('/api/openapi.json');
  if (load.status === 'loading') return <Loading label={m.integrations_reference_loading()} />;
  if (load.status !== 'ready') return <Failed title={m.integrations_reference_failed()} message={load.message} onRetry={reload} />;
  const document = load.data;
  const operations = operationsOf(document);
  const base = basePath(document);
  const server = document.servers?.[0]?.url ?? '';
  const errorSchema = document.components?.schemas?.Error ?? null;
  return (
    <div className="flex flex-col gap-8">
      <Section
        id="overview"
        title={m.integrations_ref_overview_title()}
        description={m.integrations_ref_overview_description({ version: document.info?.version ?? '1' })}
        aside={
          <a href="/api/openapi.json" className="text-sm font-medium text-primary underline-offset-4 hover:underline" download="fieldwork-openapi.json">
            {m.integrations_ref_download()}
          </a>
        }
      >
        {currentLanguage() !== SOURCE_LANGUAGE && (
          <Alert variant="info" role="note">
            {m.integrations_ref_english_note()}
          </Alert>
        )}
        <dl className="grid gap-4 text-sm sm:grid-cols-2">
          <div className="flex min-w-0 flex-col gap-1">
            <dt className="font-medium">{m.integrations_ref_base_address()}</dt>
            <dd>
              <Code className="text-sm">{server}</Code>
            </dd>
          </div>
          <div className="flex min-w-0 flex-col gap-1">
            <dt className="font-medium">{m.integrations_ref_authorization()}</dt>
            <dd className="flex flex-col gap-1">
              <Code className="self-start text-sm">Authorization: Bearer fw_…</Code>
              <span className="text-muted-foreground">
                {m.integrations_ref_authorization_text()}{' '}
                <a href="/admin/integrations/tokens" className="font-medium text-primary underline-offset-4 hover:underline">
                  {m.integrations_ref_tokens_link()}
                </a>
              </span>
            </dd>
          </div>
        </dl>
        <Prose text={document.info?.description} />
        {errorSchema && (
          <div className="flex flex-col gap-2">
            <h3 className="text-base font-semibold">{m.integrations_ref_errors_title()}</h3>
            <p className="text-sm text-muted-foreground">{m.integrations_ref_errors_text()}</p>
            <FieldTable document={document} schema={errorSchema} caption={m.integrations_ref_errors_title()} />
            <Example value={exampleOf(document, errorSchema)} label={m.integrations_ref_example_answer()} />
          </div>
        )}
        <nav aria-label={m.integrations_ref_contents()} className="flex flex-col gap-2">
          <h3 className="text-base font-semibold">{m.integrations_ref_contents()}</h3>
          <ul className="flex flex-col gap-1 text-sm">
            {operations.map((entry) => (
              <li key={entry.id}>
                <a href={`#${entry.id}`} dir="ltr" className="inline-flex flex-wrap items-center gap-2 rounded-sm underline-offset-4 hover:underline">
                  <Method method={entry.method} />
                  <code className="font-mono text-xs break-all">{`${base}${entry.path}`}</code>
                </a>
              </li>
            ))}
            <li>
              <a href="#webhooks" className="font-medium text-primary underline-offset-4 hover:underline">
                {m.integrations_ref_webhooks_title()}
              </a>
            </li>
          </ul>
        </nav>
      </Section>

      <Section id="calls" title={m.integrations_ref_calls_title()} description={m.integrations_ref_calls_description()}>
        <div className="flex flex-col gap-8">
          {operations.map((entry) => (
            <OperationBlock key={entry.id} document={document} entry={entry} base={base} />
          ))}
        </div>
      </Section>

      <Webhooks document={document} />
    </div>
  );
}
