/** `/admin/projects`: the dashboard's "Projects" section on a page of its own, which the admin sidebar names. */
import { ProjectsSection } from './ProjectsSection.tsx';

export default function ProjectsList() {
  return <ProjectsSection />;
}
