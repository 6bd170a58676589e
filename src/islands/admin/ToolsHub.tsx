import { useAuth } from '../../lib/use-auth.ts';
import { ChevronRightIcon } from '../../components/icons.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Loading } from '../../components/states/Loading.tsx';
import { ClientErrorsSection } from './ClientErrors.tsx';
import { ContactMessages } from './ContactMessages.tsx';
import { DataDeletionRequests } from './DataDeletionRequests.tsx';
import { SiteSwitches } from './SiteSwitches.tsx';
import { m } from '../../shared/i18n.ts';

/** The bulk tools' cards (words made at render, in the page's language). */
const tools = () =>
  [
    { href: '/admin/tools/points-bulk-update', title: m.admin_tools_points_title(), description: m.admin_tools_points_description() },
    { href: '/admin/tools/alchemer-export-append', title: m.admin_tools_alchemer_title(), description: m.admin_tools_alchemer_description() },
    { href: '/admin/tools/export-reviews-unilever', title: m.admin_tools_reviews_title(), description: m.admin_tools_reviews_description() },
  ] as const;

/**
 * /admin/tools: the bulk tools as cards, then the working sections. Admin-only parts (the bulk
 * tools, site switches, data-deletion requests) are hidden from moderators; the API refuses them anyway.
 */
export default function ToolsHub() {
  const auth = useAuth();
  if (auth.status !== 'authenticated') return <Loading label={m.admin_tools_loading()} />;
  const isAdmin = auth.user.role === 'admin';
  const sections = [
    ...(isAdmin ? [{ id: 'site-switches', label: m.admin_tools_section_site_switches() }] : []),
    { id: 'client-errors', label: m.admin_tools_section_client_errors() },
    ...(isAdmin ? [{ id: 'data-deletion-requests', label: m.admin_tools_section_data_deletion() }] : []),
    { id: 'contact-messages', label: m.admin_tools_section_contact() },
  ];

  return (
    <div className="flex flex-col gap-8">
      {isAdmin ? (
        <section aria-labelledby="bulk-tools-heading" className="flex flex-col gap-3">
          <h2 id="bulk-tools-heading" className="text-lg font-semibold tracking-tight">
            {m.admin_tools_bulk_heading()}
          </h2>
          <ul className="grid gap-4 md:grid-cols-3">
            {tools().map((tool) => (
              <li key={tool.href}>
                <Card className="h-full transition-colors hover:border-primary">
                  <a
                    href={tool.href}
                    className="flex h-full flex-col gap-2 rounded-xl p-5 no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                  >
                    <span className="flex items-center justify-between gap-2 font-semibold text-foreground">
                      {tool.title}
                      <ChevronRightIcon className="size-4 shrink-0 text-muted-foreground rtl:-scale-x-100" />
                    </span>
                    <span className="text-sm text-muted-foreground">{tool.description}</span>
                  </a>
                </Card>
              </li>
            ))}
          </ul>
        </section>
      ) : (
        <p className="text-sm text-muted-foreground">{m.admin_tools_bulk_admins_only()}</p>
      )}

      <nav aria-label={m.admin_tools_sections_nav()} className="-mb-2">
        <ul className="flex flex-wrap gap-2">
          {sections.map((section) => (
            <li key={section.id}>
              <a
                href={`#${section.id}`}
                data-astro-reload
                className="inline-flex h-9 items-center rounded-full border border-border bg-card px-4 text-sm font-medium text-foreground no-underline hover:bg-accent"
              >
                {section.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      {isAdmin && <SiteSwitches />}
      <ClientErrorsSection />
      {isAdmin && <DataDeletionRequests />}
      <ContactMessages />
    </div>
  );
}
