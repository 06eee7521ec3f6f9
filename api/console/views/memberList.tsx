import type { Names } from './ticketPages.js';

export const memberListId = (name: string) => `${name}-list`;

/**
 * The members a user-id input offers by name (an HTML datalist: the browser suggests them as the manager types a
 * name and fills in the id); the input still takes any id typed or pasted. The platform has no member search, so
 * the names offered are the members the page already knows.
 */
export function MemberList(props: { id: string; names: Names }) {
  return (
    <datalist id={props.id}>
      {[...props.names].map(([id, name]) => (
        <option value={id}>{name}</option>
      ))}
    </datalist>
  );
}
