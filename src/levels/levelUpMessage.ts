/** The announcement line: `{user}` becomes the member's mention and `{level}` the level reached. */
export const levelUpMessage = (template: string, userId: string, level: number): string =>
  template.replaceAll('{user}', `<@${userId}>`).replaceAll('{level}', String(level));
