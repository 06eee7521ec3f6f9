/** The answers to a form's questions (an appeal's, a submission's, a ticket's), each under its question's label. */
export function AnswerList(props: { answers: Array<{ label: string; text: string }> }) {
  return (
    <>
      <h2>Answers</h2>
      <dl>
        {props.answers.map((a) => (
          <>
            <dt>{a.label}</dt>
            <dd>{a.text}</dd>
          </>
        ))}
      </dl>
    </>
  );
}
