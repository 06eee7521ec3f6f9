import type { Names } from './ticketPages.js';

export const memberListId = (name: string) => `${name}-list`;

/**
 * The members a user-id input offers by name (an HTML datalist: the browser suggests them as the manager types a
 * name and fills in the id); the input still takes any id typed or pasted. Kept for the case list's filter: cases
 * name members who left, whom the member search (MemberPicker) cannot find, so the names offered are the cases'.
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
