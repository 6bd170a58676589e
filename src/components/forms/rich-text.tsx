/**
 * A message with markup inside its sentence ("It is worth **50 points**."): the message stays one
 * whole sentence for translators, its placeholder receives a mark, and the mark is replaced by the
 * React node. `withNodes((marks) => m.x({ date, points: marks.points }), { points: <strong>…</strong> })`.
 */
import { Fragment, type ReactNode } from 'react';

/** An invisible separator: never in a message or a placeholder's value. */
const MARK = '\u2063';
const SPLIT = new RegExp(`${MARK}(\\d+)${MARK}`);

export function withNodes<K extends string>(message: (marks: Record<K, string>) => string, nodes: Record<K, ReactNode>): ReactNode {
  const keys = Object.keys(nodes) as K[];
  const marks = Object.fromEntries(keys.map((key, index) => [key, `${MARK}${index}${MARK}`])) as Record<K, string>;
  const parts = message(marks).split(SPLIT);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>{index % 2 === 0 ? part : nodes[keys[Number(part)] as K]}</Fragment>
      ))}
    </>
  );
}
