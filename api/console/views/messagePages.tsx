import { Layout, type Viewer } from './layout.js';

/** An error or refusal: the code (also for tests and support) and a sentence, never a stack or SQL. */
export function ErrorPage(props: { status: number; code: string; message: string; viewer?: Viewer }) {
  return (
    <Layout title={props.status === 404 ? 'Not found' : props.status >= 500 ? 'Something went wrong' : 'Not allowed'} viewer={props.viewer}>
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
