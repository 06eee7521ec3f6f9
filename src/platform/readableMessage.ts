import type { FittedMessage } from '../core/messageLimits.js';
import type { PlatformEmbed } from '../core/platform.js';

// The local platform keeps a message as the text a member would read: its content, then each embed's parts in
// the order Discord shows them, so tests, the demo and operators read the same words without a card renderer.

function embedLines(e: PlatformEmbed): string[] {
  return [
    ...(e.title ? [`**${e.title}**`] : []),
    ...(e.description ? [e.description] : []),
    ...(e.fields ?? []).map((f) => `${f.name}: ${f.value}`),
    ...(e.thumbnailUrl ? [`Thumbnail: ${e.thumbnailUrl}`] : []),
    ...(e.imageUrl ? [`Image: ${e.imageUrl}`] : []),
    ...(e.footer || e.timestamp ? [[e.footer, e.timestamp?.toISOString()].filter(Boolean).join(' · ')] : []),
  ];
}

/** The message as one text: the content, then every embed's lines. */
export function readableMessage(m: Pick<FittedMessage, 'content' | 'embeds'>): string {
  return [...(m.content ? [m.content] : []), ...(m.embeds ?? []).flatMap(embedLines)].join('\n');
}
