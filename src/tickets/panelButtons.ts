// The custom_id of a ticket panel's open button (the panel's number), written and read here only.

const OPEN = /^ticket:open:(\d{1,9})$/;

export const ticketPanelButtonId = (panelId: number) => `ticket:open:${panelId}`;

/** The panel an open button belongs to, undefined for any other custom_id. */
export function parseTicketPanelButton(customId: string): number | undefined {
  const m = OPEN.exec(customId);
  const id = m ? Number(m[1]) : undefined;
  return id !== undefined && id >= 1 ? id : undefined;
}
