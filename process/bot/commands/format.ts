/** Discord's limit on a message's content. */
export const MAX_CONTENT = 2_000;

export const count = (n: number) => n.toLocaleString('en-US');

/** An amount in the server's currency: "1,250 coins", "1 coin", with its emoji in front when it has one. */
export function money(n: number, currency: { name: string; plural: string; emoji: string | null }): string {
  return `${currency.emoji ? `${currency.emoji} ` : ''}${count(n)} ${n === 1 ? currency.name : currency.plural}`;
}

/** "You" for the invoker, a mention for anyone else (answers allow no mentions, so nobody is pinged). */
export const who = (userId: string, invokerId: string) => (userId === invokerId ? 'You' : `<@${userId}>`);

/** Lines under a heading, as many as fit in one message; the rest is counted ("and 3 more"). */
export function listAnswer(heading: string, lines: string[], footer = ''): string {
  const kept: string[] = [];
  let length = heading.length + footer.length + 40;
  for (const line of lines) {
    if (length + line.length + 1 > MAX_CONTENT) break;
    kept.push(line);
    length += line.length + 1;
  }
  const more = lines.length - kept.length;
  return [heading, ...kept, ...(more > 0 ? [`…and ${more} more.`] : []), ...(footer ? [footer] : [])].join('\n');
}
