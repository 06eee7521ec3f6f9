import type { DailyFigures } from '../../../src/console/serverOverview.js';
import { BarChart, type Series } from './barChart.js';

/** Figures per UTC day (the overview's pictures); each bar carries its series and count for the tests. */
export function DailyChart<K extends string>(props: { id: string; title: string; figures: DailyFigures<K>; series: Array<Series<K>>; stacked?: boolean }) {
  const { series } = props;
  const days = props.figures.days;
  const totals = series.map((s) => `${days.reduce((n, d) => n + d.counts[s.key], 0)} ${s.label}`).join(', ');
  return (
    <BarChart
      id={props.id}
      name={props.id}
      title={props.title}
      summary={`Over the last ${days.length} days: ${totals}.`}
      series={series}
      stacked={props.stacked}
      slots={days.map((d, i) => ({
        attrs: { 'data-day': d.day },
        title: `${d.day}: ${series.map((s) => `${d.counts[s.key]} ${s.label}`).join(', ')}`,
        tick: i % 3 === 0 ? d.day.slice(5) : null,
        rowHeader: d.day,
        counts: d.counts,
      }))}
      slotHeading="Day"
      tableCaption={`${props.title} (UTC days)`}
      barAttrs={(key, count) => ({ 'data-series': key, 'data-count': count })}
    />
  );
}
