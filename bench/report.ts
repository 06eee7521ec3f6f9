import type { ScenarioResult } from './scenarioTable.js';
import type { LoadResult } from './load.js';
import type { CpuUse } from './machineCpu.js';

/** webhook-throughput's deliveries/s over temporal-ceiling's empty workflows/s, when both ran. */
export function addCeilingRatio(results: ScenarioResult[]) {
  const ceiling = results.find((r) => r.scenario === 'temporal-ceiling');
  const throughput = results.find((r) => r.scenario === 'webhook-throughput');
  if (ceiling && throughput) throughput.ratioToCeiling = throughput.runs.map((run) => Math.round((run.deliveriesPerSecond / ceiling.workflowsPerSecond.empty) * 10) / 10);
}

/** One row a result (several for the scenarios that measure more than one load), as aligned columns on stdout. */
export function printTable(results: ScenarioResult[]) {
  const rows: string[][] = [['scenario', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'note']];
  for (const r of results) {
    if (r.scenario === 'read') {
      const spread = `${r.ratioSpread.min}-${r.ratioSpread.max}`;
      rows.push(['read (full chain)', String(r.full.requestsPerSecond), String(r.full.latencyMs.p50), String(r.full.latencyMs.p99), String(r.full.non2xx), `median ratio ${r.ratio} of ${r.rounds.length} rounds (spread ${spread}; goal >= 0.85)`]);
      rows.push(['read (bare route)', String(r.bare.requestsPerSecond), String(r.bare.latencyMs.p50), String(r.bare.latencyMs.p99), String(r.bare.non2xx), 'the median round']);
      const c = r.cpuRatioSpread;
      rows.push(['read (api thread CPU)', '-', '-', '-', '-', `bare/full CPU per request: median ${r.cpuRatio} (spread ${c.min}-${c.max}); ${r.bare.apiThreadCpuUsPerRequest} vs ${r.full.apiThreadCpuUsPerRequest} µs in the median round`]);
    } else if (r.scenario === 'webhook-latency') {
      rows.push(['webhook-latency', String(r.ratePerSecond), String(r.latencyMs.p50), String(r.latencyMs.p99), String(r.transactions - r.delivered), '201 to receiver (goal p50 < 200 ms)']);
      const b = r.burst;
      rows.push(['webhook-latency burst', String(Math.round(b.transactions / b.seconds)), String(b.latencyMs.p50), String(b.latencyMs.p99), String(b.transactions - b.delivered), `${b.transactions} in ${b.seconds} s (goal p50 <= 500 ms); ${cpuText(b.cpu)}`]);
    } else if (r.scenario === 'webhook-slow-receiver') {
      rows.push(['webhook-slow-receiver fast', String(r.ratePerSecond), String(r.fast.latencyMs.p50), String(r.fast.latencyMs.p99), String(r.transactions - r.fast.delivered), 'beside one answering after 9 s']);
      rows.push(['webhook-slow-receiver slow', String(r.ratePerSecond), String(r.slow.latencyMs.p50), String(r.slow.latencyMs.p99), String(r.transactions - r.slow.delivered), '']);
    } else if (r.scenario === 'webhook-throughput') {
      r.runs.forEach((run, i) => {
        const ratio = r.ratioToCeiling?.[i] !== undefined ? `, ${r.ratioToCeiling[i]}x ceiling` : '';
        rows.push([`webhook-throughput x${run.endpoints}`, String(run.deliveriesPerSecond), '-', '-', String(run.expected - run.delivered), `deliveries/s, ${run.duplicates} duplicated${ratio} (goal >= 10x)`]);
      });
    } else if (r.scenario === 'temporal-ceiling') {
      const w = r.workflowsPerSecond;
      rows.push(['temporal-ceiling', String(w.empty), '-', '-', '-', `empty workflows/s, one worker (${w.oneActivity}/s with one activity)`]);
    } else if (r.scenario === 'xp-latency') {
      const l = r.postToDoneMs;
      rows.push(['xp-latency', String(r.achievedRatePerSecond), String(l.p50), String(l.p99), String(r.failed), `p95 ${l.p95} ms; POST to done at ${r.targetRatePerSecond}/s, ${r.completedRatePerSecond} done/s (goal p99 <= 200 ms at 20/s); ${cpuText(r.cpu)}`]);
    } else if (r.scenario === 'flow-run') {
      const l = r.requestTo200Ms;
      rows.push(['flow-run', String(r.achievedRatePerSecond), String(l.p50), String(l.p99), String(r.notSuccess), `p95 ${l.p95} ms; POST wait=true to 200, three-node flow`]);
    } else if (r.scenario === 'leaderboard') {
      for (const [name, load] of Object.entries(r.pages)) {
        rows.push([`leaderboard ${name}`, String(load.requestsPerSecond), String(load.latencyMs.p50), String(load.latencyMs.p99), String(load.non2xx), `${r.levelRows.toLocaleString('en-US')} rows; goal p99 <= 50 ms`]);
      }
    } else if (r.scenario === 'giveaways-open') {
      const d = r.endedDelayMs;
      rows.push(['giveaways-open', String(r.startRatePerSecond.active), String(d.p50), String(d.p99), String(r.giveaways - r.ended), `${r.giveaways} giveaways, cache ${r.maxCachedWorkflows}; active/s; endsAt to giveaways.ended; RSS ${r.rssMb.workerReady} -> max ${r.rssMb.maxWhileOpen} MB`]);
    } else if (r.scenario === 'giveaways-end') {
      const l = r.latenessMs;
      const m = r.workerRssMb;
      const h = r.workerHeapMb;
      rows.push(['giveaways-end', '-', String(l.end.p50), String(l.end.p99), String(r.giveaways - r.ended),
        `${r.giveaways} ends over ${r.endSpreadSeconds} s: endsAt to draw+edit+event (goal p99 <= 10 s); draw p99 ${l.draw.p99}, edit p99 ${l.postEdited.p99}, event p99 ${l.event.p99} ms; worker RSS ${m.ready} -> ${m.maxWhileOpen} open, max ${m.max} MB (goal <= 300; V8 heap ${h.ready} -> ${h.maxWhileOpen}, max ${h.max})`]);
    } else if (r.scenario === 'draw') {
      rows.push(['draw', '-', String(r.drawActivityMs), '-', '-', `${r.entrants} entrants, ${r.entries} tickets, ${r.winners} winners, ${r.checkedEntrants} checked; draw activity ms (retry ${r.retryMs} ms)`]);
    } else if (r.scenario === 'discord-effects') {
      rows.push(['discord-effects', String(r.changesPerSecond), '-', '-', String(r.rateLimited), `${r.changes} role changes from ${r.workers} worker processes through the egress in ${r.seconds} s (limits allow ${r.fastestSeconds} s), ${r.rateLimitedShare}% 429, ${r.lost} lost, ${r.doubled} doubled`]);
    } else if (r.scenario === 'gateway-ingest') {
      for (const run of r.runs) {
        const l = run.latencyAt200.dispatchToCommitMs;
        const cpu = `CPU/msg: bot ${run.botCpuMicrosPerMessage} µs, fake ${run.fakeCpuMicrosPerMessage} µs; ${run.wireBytesPerMessage} B/msg on the wire`;
        rows.push([`gateway-ingest ${run.compression} at 200/s`, '200', String(l.p50), String(l.p99), String(run.latencyAt200.sent - run.latencyAt200.committed), `MESSAGE_CREATE to XP committed (goal p99 <= 100 ms); ${cpu}`]);
        const top = run.steps.find((s) => s.ratePerSecond === run.maxKeptUpRatePerSecond);
        rows.push([
          `gateway-ingest ${run.compression} max`,
          String(run.maxKeptUpRatePerSecond),
          String(top?.dispatchToCommitMs.p50 ?? '-'),
          String(top?.dispatchToCommitMs.p99 ?? '-'),
          String(run.messagesSent - run.messagesCounted),
          `msg/s kept up with, ${r.stepSeconds} s steps (goal >= 2000); ${run.messagesCounted}/${run.messagesSent} counted, XP ${run.xpApplied}/${run.xpExpected}`,
        ]);
      }
    } else if (r.scenario === 'gateway-ready') {
      const q = r.requests;
      rows.push([
        'gateway-ready',
        '-',
        '-',
        '-',
        String(r.rateLimited),
        `${r.guilds} servers x ${r.membersPerGuild}: READY ${r.readyMs} ms, servers ${r.guildsHandledMs} ms, reconciled ${r.reconciledMs} ms; REST ${q.memberPages} member pages, ${q.invites} invites, ${q.other} other; ${r.connections} connection(s), ${r.resumes} resumes, ${r.invalidRequests} invalid`,
      ]);
    } else if (r.scenario === 'gateway-restart') {
      rows.push([
        'gateway-restart',
        String(r.achievedRatePerSecond),
        '-',
        '-',
        String(r.lost),
        `${r.counted}/${r.sent} counted over ${r.guilds} servers, XP ${r.xpApplied}/${r.xpExpected}, SIGTERM then SIGKILL; caught up ${r.catchUpMs} ms after the last; ${r.identifies} identify, ${r.resumes} resumes, ${r.invalidRequests} invalid; /rank: ${r.interactions.answered}/${r.interactions.sent} answered (p99 ${r.interactions.firstAnswerMs.p99} ms from creation), ${r.interactions.notActedOn} not acted on (too old), ${r.interactions.answeredLate} late`,
      ]);
    } else if (r.scenario === 'commands') {
      const f = r.firstAnswerMs;
      const per = Object.entries(r.byCommand).map(([name, c]) => `/${name} p99 ${c.firstAnswerMs.p99}`).join(', ');
      rows.push([
        'commands',
        String(r.achievedRatePerSecond),
        String(f.p50),
        String(f.p99),
        String(r.pastThreeSeconds),
        `max ${f.max} ms; ${r.sent} interactions, ${r.levelRows.toLocaleString('en-US')} level rows; snowflake to first answer (goal p99 <= 500, none past 3 s); ${per}; text p99 ${r.textMs.p99} ms; ${r.unanswered} unanswered, ${r.refusedAnswers} refused`,
      ]);
    } else if (r.scenario === 'purge') {
      const p = r.purge;
      const sign = (n: number) => `${n >= 0 ? '+' : ''}${n}%`;
      const line = (name: string, l: LoadResult, note: string) => rows.push([name, String(l.requestsPerSecond), String(l.latencyMs.p50), String(l.latencyMs.p99), String(l.non2xx), note]);
      line('purge saturated before', r.saturated.before, `${r.expiredRows.toLocaleString('en-US')} expired rows; reads as fast as answered`);
      line('purge saturated during', r.saturated.during, `p99 ${sign(r.saturated.p99ChangePercent)}`);
      r.paced.pairs.forEach((pair, i) => {
        line(`purge paced ${i + 1} without`, pair.without.load, `${pair.first === 'without' ? 'first' : 'second'}; ${cpuText(pair.without.cpu)}`);
        line(`purge paced ${i + 1} with`, pair.with.load, `${pair.purged.toLocaleString('en-US')} rows purged; ${cpuText(pair.with.cpu)}`);
      });
      rows.push([
        'purge paced median p99',
        String(r.paced.ratePerSecond),
        '',
        `${r.paced.medianP99Ms.without} -> ${r.paced.medianP99Ms.with}`,
        '',
        `p99 ${sign(r.p99ChangePercent)} (goal < 20 at 10,000,000); purged ${p.rows.toLocaleString('en-US')} rows in ${p.slices} slices of ${p.sliceSeconds} s (${p.rowsPerSecond.toLocaleString('en-US')}/s), batches of ${p.limits.batchRows}, deleting ${p.limits.dutyPercent} % of the time, at most ${p.limits.rowsPerSecond.toLocaleString('en-US')} rows/s`,
      ]);
    } else if (r.scenario === 'shop-buy') {
      rows.push(['shop-buy', String(r.throughput.requestsPerSecond), String(r.throughput.latencyMs.p50), String(r.throughput.latencyMs.p99), String(r.throughput.non2xx), `${r.throughput.sold} sold; scarce: ${r.scarce.sold}/${r.scarce.stock} sold, ledger mismatches ${r.ledgerMismatches}`]);
    } else {
      rows.push(['write', String(r.load.requestsPerSecond), String(r.load.latencyMs.p50), String(r.load.latencyMs.p99), String(r.load.non2xx), `ledger mismatches ${r.ledgerMismatches}`]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
}

/** The machine's busy share and the programs that used it, busiest first. */
function cpuText(cpu: CpuUse): string {
  const programs = Object.entries(cpu.byProgram).sort(([, a], [, b]) => b - a).slice(0, 5).map(([name, cores]) => `${name} ${cores}`);
  return `cores ${cpu.machineBusyPercent}% busy of ${cpu.cores} (${programs.join(', ')})`;
}
