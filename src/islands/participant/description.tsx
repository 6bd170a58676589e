/** A survey's description (author-written Markdown), on the survey screen and in its lazily loaded states. */
import { Markdown } from '../../components/forms/Markdown.tsx';

export function Description({ text }: { text: string }) {
  return text.trim() ? <Markdown headingLevel={2}>{text}</Markdown> : null;
}
