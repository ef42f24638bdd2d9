import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from '../../components/ui/button';
import { ColumnCells, type ColumnBase } from '../../components/ui/column-cells';
import { SelectField, TextField } from '../../components/ui/field';
import { ErrorState, LoadingState } from '../../components/ui/query-state';
import { OptionList, type Option } from './form-ui';
import { PageHeader, Pager, Panel, TableFrame, td, th } from './ui';

/** The parts the back-office list pages (users, verifications, partners, tokens, audit) have in common. */

/** A page title with a Refresh button that refetches the page's list. */
export function ListHeader({
  title,
  onRefresh,
  children,
}: {
  title: string;
  onRefresh(): void;
  /** Shown before the Refresh button. */
  children?: ReactNode;
}) {
  return (
    <PageHeader title={title}>
      {children}
      <Button variant="secondary" onClick={onRefresh}>
        Refresh
      </Button>
    </PageHeader>
  );
}

/** The panel of filters above a list: one column on phones, `columns` from `sm` (4: two on `sm`, four on `lg`). */
export function FilterBar({
  columns,
  children,
  footer,
}: {
  columns: 3 | 4;
  children: ReactNode;
  /** Shown below the grid, inside the same panel. */
  footer?: ReactNode;
}) {
  return (
    <Panel>
      <div
        className={`grid grid-cols-1 gap-4 ${columns === 3 ? 'sm:grid-cols-3' : 'sm:grid-cols-2 lg:grid-cols-4'}`}
      >
        {children}
      </div>
      {footer}
    </Panel>
  );
}

/** A free-text search filter. */
export function SearchFilter({
  placeholder,
  value,
  onChange,
}: {
  placeholder: string;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <TextField
      label="Search"
      type="search"
      placeholder={placeholder}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** A select filter; `all` adds a first option with the empty value (no filter). */
export function SelectFilter<T extends string>({
  label,
  value,
  onChange,
  all,
  options,
}: {
  label: string;
  value: T;
  onChange(value: T): void;
  all?: string;
  options: readonly Option<T>[];
}) {
  return (
    <SelectField label={label} value={value} onChange={(event) => onChange(event.target.value as T)}>
      {all === undefined ? null : <option value="">{all}</option>}
      <OptionList options={options} />
    </SelectField>
  );
}

/** The four counters above a list. */
export function StatGrid({ children }: { children: ReactNode }) {
  return <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">{children}</dl>;
}

/** An error box announced when it appears, for errors shown outside a list. */
export function ErrorBox({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
      {children}
    </div>
  );
}

interface ListQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch(): unknown;
}

/**
 * A list's loading, error and empty states, then its content.
 * Without `failed` an error is not shown here: the page shows it elsewhere and the list reads as empty.
 */
export function ListState({
  query,
  count,
  loading,
  failed,
  failedDetail,
  empty,
  children,
}: {
  query: ListQuery;
  /** How many rows there are to show. */
  count: number;
  loading: string;
  failed?: string;
  /** The reason shown under `failed` when the server gave none (default: `failed` alone). */
  failedDetail?: string;
  empty: string;
  children: ReactNode;
}) {
  if (query.isPending) return <LoadingState label={loading} />;
  if (failed !== undefined && query.isError) {
    return (
      <ErrorState
        error={query.error}
        title={failed}
        fallback={failedDetail ?? failed}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (count === 0) return <p className="text-sm text-slate-700">{empty}</p>;
  return <>{children}</>;
}

/** A column of a back-office table; its classes are added to the shared cell classes (`td`). */
export interface Column<Row> extends ColumnBase<Row> {
  /**
   * Kept in view at the right edge while the table scrolls sideways on wide screens (a row's actions, issue 25
   * item 11); on phones the column scrolls with the rest.
   */
  pinned?: boolean;
}

const PINNED = 'lg:sticky lg:right-0 lg:shadow-[inset_1px_0_0_0_rgb(226_232_240)]';
const INTERACTIVE = 'a, button, input, select, textarea, label, [role="button"]';

interface TableProps<Row> {
  /** The accessible name of the table's scrolling region. */
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  /** data-testid of each row. */
  rowTestId?: string;
  /**
   * Opens a row when it is clicked anywhere but on its own controls. A pointer convenience: each row also has a
   * button that does the same for keyboard and screen-reader users.
   */
  onOpen?(row: Row): void;
}

/** A table of rows described by columns, in a TableFrame (scrolls sideways on narrow screens). */
export function DataTable<Row extends { id: string }>({
  label,
  columns,
  rows,
  rowTestId,
  onOpen,
  shadedHead = true,
}: TableProps<Row> & { shadedHead?: boolean }) {
  const head = shadedHead ? 'bg-slate-50' : 'bg-white';
  return (
    <TableFrame label={label}>
      <thead className={shadedHead ? 'bg-slate-50' : undefined}>
        <tr>
          {columns.map((column, index) => (
            <th key={index} scope="col" className={column.pinned ? `${th} ${PINNED} ${head}` : th}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((row) => (
          <tr
            key={row.id}
            data-testid={rowTestId}
            className={onOpen ? 'cursor-pointer hover:bg-slate-50' : undefined}
            onClick={
              onOpen
                ? (event) => {
                    if (!(event.target as Element).closest(INTERACTIVE)) onOpen(row);
                  }
                : undefined
            }
          >
            <ColumnCells
              columns={columns}
              row={row}
              cellClass={(column) =>
                [td, column.className, column.pinned ? `${PINNED} bg-white` : null].filter(Boolean).join(' ')
              }
            />
          </tr>
        ))}
      </tbody>
    </TableFrame>
  );
}

/** One page of a server-paged list: its states (see ListState), the table, and the pager under it. */
export function PagedTable<Row extends { id: string }>({
  query,
  loading,
  failed,
  failedDetail,
  empty,
  skip,
  limit,
  onPage,
  ...table
}: TableProps<Row> & {
  query: ListQuery & { data?: { total_count: number } };
  loading: string;
  failed?: string;
  failedDetail?: string;
  empty: string;
  skip: number;
  limit: number;
  onPage(skip: number): void;
}) {
  return (
    <ListState
      query={query}
      count={table.rows.length}
      loading={loading}
      failed={failed}
      failedDetail={failedDetail}
      empty={empty}
    >
      <DataTable {...table} />
      <Pager skip={skip} limit={limit} total={query.data?.total_count ?? 0} onChange={onPage} />
    </ListState>
  );
}

/** A small button in a table row; `label` is its accessible name (it names the row, the text does not). */
export function RowAction({
  label,
  onClick,
  variant = 'ghost',
  className,
  children,
}: {
  label: string;
  onClick(): void;
  variant?: ButtonVariant;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Button
      variant={variant}
      className={className ? `px-2 py-1 ${className}` : 'px-2 py-1'}
      aria-label={label}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

/** The row actions of a table cell, wrapping on narrow screens. */
export function RowActions({ children }: { children: ReactNode }) {
  return <div className="flex flex-wrap gap-1">{children}</div>;
}
