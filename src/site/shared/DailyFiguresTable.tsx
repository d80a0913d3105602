/**
 * Figures per day as a table (the admin's analytics, the dashboard's API usage), on the site's one table: a row a
 * day, newest first, a column per figure, and the range's totals. The day stays in view while a narrow screen scrolls
 * the figures sideways; the table scrolls within its card, and the keyboard can focus it to scroll.
 */
import { DataTable, type DataColumn } from "./DataTable"
import { dayWithWeekday, figure } from "./daily-figures"

export interface DailyFigure<Day> {
  label: string
  of: (day: Day) => number
  /** The figure over the whole range (a sum, or what the figure says it is). */
  total: number
  /** The sum of the row's other figures: written heavier, never greyed at zero. */
  isSum?: boolean
}

export interface DailyFiguresTableProps<Day> {
  /** What the figures are ("API calls per day and endpoint"); the order of the days is added. */
  caption: string
  /** The range's days, oldest first, as the server answers them. */
  days: readonly Day[]
  /** A day's UTC date ("2026-11-27"). */
  dateOf: (day: Day) => string
  figures: readonly DailyFigure<Day>[]
  /** The totals row's name. */
  totalLabel?: string
}

export function DailyFiguresTable<Day>({ caption, days, dateOf, figures, totalLabel = "Total" }: DailyFiguresTableProps<Day>) {
  const columns: DataColumn<Day>[] = [
    { header: "Day", rowHeader: true, sticky: true, cellClassName: "whitespace-nowrap", cell: (day) => dayWithWeekday(dateOf(day)) },
    ...figures.map(
      ({ label, of, isSum }): DataColumn<Day> => ({
        header: label,
        align: "end",
        cell: (day) => figure(of(day)),
        // A day without any is greyed, so the days that count stand out.
        cellClassName: (day) => (isSum ? "font-medium" : of(day) ? "text-gray-900" : "text-gray-500")
      })
    )
  ]
  return (
    <DataTable
      caption={`${caption}, newest day first`}
      columns={columns}
      rows={[...days].reverse()}
      rowKey={dateOf}
      empty="No days to show."
      totals={[totalLabel, ...figures.map(({ total }) => figure(total))]}
      scroll="both"
      compact
    />
  )
}
