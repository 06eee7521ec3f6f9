import { FlowRefusal } from './flowDefinitionCheck.js';

/**
 * A definition as written (a file for the admin CLI, a textarea for the console) read as JSON; text that is not
 * JSON is refused INVALID_DEFINITION like any other definition the rules refuse, its issue on the flow as a whole.
 */
export function parseDefinitionText(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const message = `${source} is not JSON: ${(err as Error).message}`;
    throw new FlowRefusal('INVALID_DEFINITION', message, [{ node: null, message }]);
  }
}
