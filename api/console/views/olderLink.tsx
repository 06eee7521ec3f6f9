/** The link to a list's next page (keyset pagination: records older than the last shown), when there is one. */
export function OlderLink(props: { href: string | null | undefined; label: string }) {
  if (!props.href) return null;
  return (
    <p>
      <a href={props.href} rel="next">
        {props.label}
      </a>
    </p>
  );
}
