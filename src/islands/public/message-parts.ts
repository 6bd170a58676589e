/**
 * A message with an element inside its sentence (a link, a bold address): the message is rendered
 * with a marker for the element's placeholder and cut there, so each language keeps the whole
 * sentence (and its word order) in one message.
 *
 *   const [before, after] = aroundPlaceholder((slot) => m.public_contact_sent_text({ email: slot }));
 *   <p>{before}<strong>{email}</strong>{after}</p>
 */
const MARKER = '\uE000';

export function aroundPlaceholder(render: (slot: string) => string): [before: string, after: string] {
  const text = render(MARKER);
  const at = text.indexOf(MARKER);
  return at === -1 ? [text, ''] : [text.slice(0, at), text.slice(at + MARKER.length)];
}
