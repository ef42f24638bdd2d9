import type { ReactNode } from 'react';

/** A table column described once: its header, and its cell for each row. */
export interface ColumnBase<Row> {
  header: ReactNode;
  cell(row: Row): ReactNode;
  /** Classes added to the table's own cell classes. */
  className?: string;
  /** The cell's tooltip, e.g. the full id behind a short one. */
  title?(row: Row): string | undefined;
}

/** One row's cells, a `<td>` per column; `cellClass` gives each its classes (the table's, then the column's). */
export function ColumnCells<Row, Column extends ColumnBase<Row>>({
  columns,
  row,
  cellClass,
}: {
  columns: readonly Column[];
  row: Row;
  cellClass(column: Column, index: number): string;
}) {
  return (
    <>
      {columns.map((column, index) => (
        <td key={index} className={cellClass(column, index)} title={column.title?.(row)}>
          {column.cell(row)}
        </td>
      ))}
    </>
  );
}
