import { h } from 'preact';
import { render } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { ChannelPicker, RolePicker, RolesPicker } from '../../api/console/views/pickers.js';
import type { ServerDirectory } from '../../src/console/serverDirectory.js';

const directory: ServerDirectory = {
  roles: [
    { id: '11', name: 'Moderators', managed: false },
    { id: '12', name: 'Community Bot', managed: true },
    { id: '13', name: 'Members', managed: false },
  ],
  channels: [
    { id: '21', name: 'general', type: 'text' },
    { id: '22', name: 'Support', type: 'category' },
    { id: '23', name: 'Lounge', type: 'voice' },
  ],
};

// An empty value renders as a bare `value` attribute.
const optionValues = (html: string) => [...html.matchAll(/<option value(?:="(\d+)")?/g)].map((m) => m[1] ?? '');

describe('dashboard pickers', () => {
  it('offers only the channel types the setting accepts, by name', () => {
    const html = render(h(ChannelPicker, { name: 'channelId', label: 'Channel', directory, types: ['text'], selected: '21' }));
    expect(optionValues(html)).toEqual(['21']);
    expect(html).toContain('#general');
    expect(html).toMatch(/<option value="21" selected>/);
  });

  it('keeps a setting that names a channel the server no longer has, so saving does not drop it unseen', () => {
    const html = render(h(ChannelPicker, { name: 'channelId', label: 'Channel', directory, types: ['category'], selected: '99', none: 'No category' }));
    expect(optionValues(html)).toEqual(['', '99', '22']);
    expect(html).toContain('Unknown channel 99');
  });

  it('never offers a managed role, which nobody can give', () => {
    expect(optionValues(render(h(RolePicker, { name: 'roleId', label: 'Role', directory, none: 'None' })))).toEqual(['', '11', '13']);
    const many = render(h(RolesPicker, { name: 'staffRoleIds', label: 'Staff', directory, selected: ['13'] }));
    expect([...many.matchAll(/value="(\d+)"/g)].map((m) => m[1])).toEqual(['11', '13']);
    expect(many).toMatch(/value="13" checked/);
  });

  it('shows the field error next to the picker and marks it invalid', () => {
    const problem = { status: 422, code: 'INVALID_INPUT', errors: [{ field: 'roleId', message: 'Pick a role.' }] };
    const html = render(h(RolePicker, { name: 'roleId', label: 'Role', directory, problem }));
    expect(html).toContain('Pick a role.');
    expect(html).toContain('aria-invalid="true"');
  });
});
