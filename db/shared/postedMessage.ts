/** Where a message the service posted and keeps up to date (a panel) is on the platform. */
export interface PostedMessage {
  channelId: string;
  messageId: string;
}
