import { Layout, type Viewer } from './layout.js';

// A form sent without its page's one-time token (or twice while the first is still handled) is no question of rights.
const TITLES: Record<string, string> = { FORM_TOKEN_INVALID: 'This form is out of date', FORM_STILL_SENDING: 'This form is still being handled' };

const titleOf = (status: number, code: string) => TITLES[code] ?? (status === 404 ? 'Not found' : status >= 500 ? 'Something went wrong' : 'Not allowed');

/** An error or refusal: the code (also for tests and support) and a sentence, never a stack or SQL. */
export function ErrorPage(props: { status: number; code: string; message: string; viewer?: Viewer }) {
  return (
    <Layout title={titleOf(props.status, props.code)} viewer={props.viewer}>
      <p class="error" role="alert" data-error={props.code}>
        {props.message}
      </p>
      <p class="muted">Error code: {props.code}</p>
      <p>
        <a href="/console">Back to your servers</a>
      </p>
    </Layout>
  );
}
