import { COMMON_FLAGS, type FlagDef } from './args.js';
import type { AdminCommand, CommandGroup } from './command.js';

const flagUsage = (name: string, def: FlagDef) => {
  const flag = def.type === 'boolean' ? `--${name}` : `--${name} ${def.placeholder ?? 'VALUE'}`;
  return def.required ? flag : `[${flag}]`;
};

export const commandUsage = (group: CommandGroup, command: AdminCommand) =>
  [group.name, command.name, ...Object.entries(command.flags).map(([name, def]) => flagUsage(name, def)), '[--json]'].join(' ');

export function commandHelp(group: CommandGroup, command: AdminCommand): string[] {
  const flags: Array<[string, FlagDef]> = Object.entries({ ...command.flags, ...COMMON_FLAGS });
  const width = Math.max(...flags.map(([name]) => name.length)) + 2;
  return [
    `Usage: npm run admin -- ${commandUsage(group, command)}`,
    '',
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
    '',
    ...flags.map(([name, def]) => `  --${name.padEnd(width)}${def.help}${def.required ? ' (required)' : ''}`),
  ];
}

export function groupHelp(group: CommandGroup): string[] {
  return [
    `Usage: npm run admin -- ${group.name} <${group.commands.map((c) => c.name).join('|')}> [flags]   (${group.summary})`,
    '',
    ...group.commands.flatMap((c) => [`  ${commandUsage(group, c)}`, `      ${c.summary}`]),
    '',
    `Details: npm run admin -- ${group.name} <command> --help`,
  ];
}

export function generalHelp(groups: CommandGroup[]): string[] {
  return [
    'Usage: npm run admin -- <group> <command> [flags] [--json]',
    '',
    ...groups.map((g) => `  ${g.name.padEnd(10)}${g.commands.map((c) => c.name).join('|').padEnd(22)}  ${g.summary}`),
    '',
    'Every command accepts --json. Errors go to stderr; exit code 1 when refused, 2 for a wrong command line.',
    'Details: npm run admin -- <group> --help',
  ];
}
