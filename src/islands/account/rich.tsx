/**
 * A message with elements inside it (a bold address, a link, a time): the message is made with a
 * marker for each element's placeholder, and each marker is then put back as its element, so a
 * sentence stays one message in every language whatever its word order.
 */
import { Fragment, type ReactNode } from 'react';

/** Private-use characters: never in a message's own text. */
const FIRST_MARK = 0xe000;
const MARKS = /([\uE000-\uE0FF])/;

/**
 * `rich((mark) => m.x({ email: mark('email') }), { email: <strong>{email}</strong> })`: the
 * message's text with `<strong>…</strong>` where `{email}` was.
 */
export function rich<K extends string>(text: (mark: (name: K) => string) => string, elements: Readonly<Record<K, ReactNode>>): ReactNode {
  const names: K[] = [];
  const message = text((name) => {
    names.push(name);
    return String.fromCharCode(FIRST_MARK + names.length - 1);
  });
  return message.split(MARKS).map((part, index) => {
    if (index % 2 === 0) return part;
    const name = names[part.charCodeAt(0) - FIRST_MARK];
    return <Fragment key={index}>{name === undefined ? null : elements[name]}</Fragment>;
  });
}
