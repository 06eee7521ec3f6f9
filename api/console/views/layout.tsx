import type { ComponentChildren } from 'preact';

export interface Viewer {
  userName: string;
  csrf: string;
  /** A one-time token for a state-changing form posting to `action` (views/formParts.tsx FormFields). */
  formToken(action: string): string;
}

export interface ServerNav {
  id: string;
  name: string;
  active: 'overview' | 'levels' | 'bank' | 'shop' | 'giveaways' | 'invites' | 'moderation' | 'tickets' | 'applications' | 'appeals' | 'flows' | 'keys' | 'webhooks' | 'audit';
}

/** The hidden CSRF field every state-changing form carries. */
export const CsrfField = ({ token }: { token: string }) => <input type="hidden" name="_csrf" value={token} />;

const NAV: Array<{ key: ServerNav['active']; label: string; path: string }> = [
  { key: 'overview', label: 'Overview', path: 'overview' },
  { key: 'levels', label: 'Levels', path: 'levels' },
  { key: 'bank', label: 'Bank', path: 'bank' },
  { key: 'shop', label: 'Shop', path: 'shop' },
  { key: 'giveaways', label: 'Giveaways', path: 'giveaways' },
  { key: 'invites', label: 'Invites', path: 'invites' },
  { key: 'moderation', label: 'Moderation', path: 'moderation' },
  { key: 'tickets', label: 'Tickets', path: 'tickets' },
  { key: 'applications', label: 'Applications', path: 'applications' },
  { key: 'appeals', label: 'Appeals', path: 'appeals' },
  { key: 'flows', label: 'Flows', path: 'flows' },
  { key: 'keys', label: 'API keys', path: 'keys' },
  { key: 'webhooks', label: 'Webhooks', path: 'webhooks' },
  { key: 'audit', label: 'Audit log', path: 'audit' },
];
/** Whether the console has pages for this area (a feature's pages, for its switch's confirmation). */
export const hasServerPage = (key: string) => NAV.some((n) => n.key === key);

/** Every console page: no inline script or style (the CSP forbids both), the CSRF token also as an htmx header. */
export function Layout(props: { title: string; viewer?: Viewer; server?: ServerNav; hasErrors?: boolean; children: ComponentChildren }) {
  const { viewer, server } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false}' />
        <title>{`${props.hasErrors ? 'Error: ' : ''}${props.title} · Community Bot console`}</title>
        <link rel="stylesheet" href="/console/assets/console.css" />
        <script src="/console/assets/htmx.min.js" defer></script>
        <script src="/console/assets/console.js" defer></script>
      </head>
      <body hx-headers={viewer ? JSON.stringify({ 'X-CSRF-Token': viewer.csrf }) : undefined}>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <a class="brand" href="/console">Community Bot console</a>
          {viewer && (
            <form method="post" action="/console/sign-out" class="inline">
              <CsrfField token={viewer.csrf} />
              <span class="who">Signed in as {viewer.userName}</span> <button type="submit">Sign out</button>
            </form>
          )}
        </header>
        {server && (
          <nav aria-label={`Server ${server.name}`} class="tabs">
            <span class="server-name">{server.name}</span>
            <ul>
              {NAV.map((n) => (
                <li>
                  <a href={`/console/servers/${server.id}/${n.path}`} aria-current={n.key === server.active ? 'page' : undefined}>
                    {n.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <main id="main">
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

export const isoTime = (d: Date | null | undefined) => (d ? <time datetime={d.toISOString()}>{d.toISOString().replace('T', ' ').slice(0, 19)} UTC</time> : null);
/** An API body's ISO time as isoTime shows it, or a dash where there is none (not yet, or never). */
export const isoTimeOrDash = (iso: string | null) => (iso ? isoTime(new Date(iso)) : '—');
