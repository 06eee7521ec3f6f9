import { Layout } from './layout.js';

/**
 * Sign-in: with Discord when the console's OAuth2 application is configured (discord mode); the development sign-in
 * (pick a member of the local platform) only when CONSOLE_DEV_SIGN_IN or `npm run dev` turns it on.
 */
export function SignInPage(props: { discord: boolean; localPeople?: Array<{ userId: string; name: string }> }) {
  return (
    <Layout title="Sign in">
      <p>Server managers (the owner, or a member with Manage Server or Administrator) manage API keys and webhooks here.</p>
      {props.discord && (
        <p>
          <a class="button" href="/console/sign-in/discord">
            Sign in with Discord
          </a>
        </p>
      )}
      {props.localPeople && (
        <section aria-labelledby="dev-sign-in">
          <h2 id="dev-sign-in">Development sign-in (local platform)</h2>
          <form method="post" action="/console/sign-in/local">
            <label for="userId">Sign in as</label>
            <select id="userId" name="userId" required>
              {props.localPeople.map((p) => (
                <option value={p.userId}>
                  {p.name} ({p.userId})
                </option>
              ))}
            </select>
            <button type="submit">Sign in</button>
          </form>
        </section>
      )}
      {!props.discord && !props.localPeople && <p role="alert">Sign-in is not configured: with Discord, set DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and CONSOLE_REDIRECT_URI; for local development, CONSOLE_DEV_SIGN_IN=true.</p>}
    </Layout>
  );
}
