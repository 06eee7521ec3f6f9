// The console's only script besides htmx (served from /console/assets, as the CSP allows no inline script):
// the copy buttons next to secrets shown once, and the focus on the error summary of a form that came back.
document.addEventListener('DOMContentLoaded', () => {
  const summary = document.querySelector('[data-error-summary]');
  if (summary instanceof HTMLElement) summary.focus();
});

document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (!button) return;
  const field = document.getElementById(button.getAttribute('data-copy'));
  const status = document.querySelector(`[data-copied-for="${button.getAttribute('data-copy')}"]`);
  if (!field) return;
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    if (status) status.textContent = 'Copied to the clipboard.';
  } catch {
    if (status) status.textContent = 'Copy failed: the text is selected, press Ctrl+C (or ⌘C).';
  }
});
