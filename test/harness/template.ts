/** Name of the migrated database every test file clones. */
export const TEMPLATE_DATABASE = 'community_bot_test_template';
