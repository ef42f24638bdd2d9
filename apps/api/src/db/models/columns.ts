import {
  DataTypes,
  Model,
  type DataType,
  type InitOptions,
  type ModelAttributeColumnOptions,
  type ModelStatic,
  type Sequelize,
} from 'sequelize';

/**
 * Column and table definitions the models share, so that a rule such as "ids are generated UUIDs" or "Sequelize
 * stamps created_at and updated_at" is written once, and so that a model states its columns once: the TypeScript
 * types of a row are read from the column table instead of being declared beside it. The migrations stay the
 * schema's source of truth: these describe the columns they create (migrations.test.ts checks the two agree).
 */

declare const valueType: unique symbol;
declare const leftOutOnCreate: unique symbol;

/** A database type that carries the TypeScript type of its values (types only: at run time it is the DataType). */
export type TypedDataType<T> = DataType & { readonly [valueType]?: T };

/** A column's options with the type of its value and whether a new row may leave it out (a default, NULL, a stamp). */
export type Column<T, Optional extends boolean = boolean> = ModelAttributeColumnOptions & {
  readonly [valueType]?: T;
  readonly [leftOutOnCreate]?: Optional;
};

type Columns = Record<string, Column<unknown>>;

/** A row of a table as the code reads it. */
export type RowOf<C extends Columns> = { [K in keyof C]: C[K] extends Column<infer T> ? T : never };

type OptionalOnCreate<C extends Columns> = {
  [K in keyof C]: C[K] extends Column<unknown, true> ? K : never;
}[keyof C];

/** What creating a row must give: every column but those with a default, a NULL or a stamp to fall back on. */
export type NewRowOf<C extends Columns> = Omit<RowOf<C>, OptionalOnCreate<C>> &
  Partial<Pick<RowOf<C>, OptionalOnCreate<C>>>;

const typed = <T>(type: DataType) => type as TypedDataType<T>;

/** The database types the tables use, each carrying the TypeScript type of its values. */
export const sql = {
  uuid: () => typed<string>(DataTypes.UUID),
  /** VARCHAR(length); `T` narrows it to the values the code writes (a status, a kind). */
  string: <T extends string = string>(length: number) => typed<T>(DataTypes.STRING(length)),
  text: () => typed<string>(DataTypes.TEXT),
  integer: () => typed<number>(DataTypes.INTEGER),
  double: () => typed<number>(DataTypes.DOUBLE),
  date: () => typed<Date>(DataTypes.DATE),
  blob: () => typed<Buffer>(DataTypes.BLOB),
  json: <T>() => typed<T>(DataTypes.JSON),
};

/** A column that may hold NULL. */
export const nullable = <T>(type: TypedDataType<T>): Column<T | null, true> => ({ type });

/** A column that must hold a value (NOT NULL). */
export const required = <T>(type: TypedDataType<T>): Column<T, false> => ({ type, allowNull: false });

/** A NOT NULL column that must hold a value no other row holds. */
export const unique = <T>(type: TypedDataType<T>): Column<T, false> => ({
  type,
  allowNull: false,
  unique: true,
});

/** A NOT NULL column a new row may leave to its default. */
export const withDefault = <T>(type: TypedDataType<T>, defaultValue: T): Column<T, true> => ({
  type,
  allowNull: false,
  defaultValue,
});

/** A primary key the code chooses itself (not generated). */
export const primaryKey = <T>(type: TypedDataType<T>): Column<T, false> => ({ type, primaryKey: true });

/** The generated UUID primary key of most tables. */
export const uuidKey = (): Column<string, true> => ({
  type: DataTypes.UUID,
  defaultValue: DataTypes.UUIDV4,
  primaryKey: true,
});

/** A count that starts at zero: attempts, failures. */
export const counter = () => withDefault(sql.integer(), 0);

/** A yes/no column that always holds one of the two. */
export const flag = (defaultValue: boolean) => withDefault(typed<boolean>(DataTypes.BOOLEAN), defaultValue);

/** `created_at` or `updated_at` of a table whose stamps Sequelize fills in (see stampedTable). */
export const stamp = (): Column<Date, true> => ({ type: DataTypes.DATE });

/** A TEXT column that holds a list as JSON text; the code reads and writes the list. */
export const jsonList = <T>(column: string): Column<T[], false> => ({
  type: DataTypes.TEXT,
  allowNull: false,
  get(this: Model): T[] {
    const raw = this.getDataValue(column) as string | null;
    return raw ? (JSON.parse(raw) as T[]) : [];
  },
  set(this: Model, value: T[]) {
    this.setDataValue(column, JSON.stringify(value));
  },
});

/** The key and credentials of an account table (users, partners, administrators). */
export const accountColumns = () => ({
  id: uuidKey(),
  /** Stored lower-cased; unique on LOWER(email) in the database as well. */
  email: required(sql.string(254)),
  password_hash: required(sql.string(200)),
});

/** The sign-in figures an account keeps (users, partners, administrators), shown in the back office (spec 02). */
export const signInColumns = () => ({
  login_attempts: counter(),
  locked_until: nullable(sql.date()),
  last_login_at: nullable(sql.date()),
});

/**
 * An image kept in the database and served at an unguessable URL (`key`), because an <img> cannot send a bearer
 * token: profile photos and site icons, one per owner (the owner's id is the table's key).
 */
export const imageColumns = () => ({
  key: unique(sql.string(64)),
  content_type: required(sql.string(32)),
  bytes: required(sql.blob()),
  updated_at: stamp(),
});

/** A model class whose attributes are `C`, typed from it. `initModel` binds it to a database. */
export type TableModel<C extends Columns> = ModelStatic<Model<RowOf<C>, NewRowOf<C>> & RowOf<C>> & {
  initModel<M>(this: M, sequelize: Sequelize): M;
};

function table<C extends Columns>(columns: C, options: (sequelize: Sequelize) => InitOptions): TableModel<C> {
  return class extends Model {
    static initModel(sequelize: Sequelize) {
      // Sequelize writes into the options it is given; each database gets its own copy, as a literal would be.
      const attributes = Object.fromEntries(
        Object.entries(columns).map(([name, column]) => [name, { ...column }]),
      );
      this.init(attributes, options(sequelize));
      return this;
    }
  } as unknown as TableModel<C>;
}

/**
 * The base of a model whose `created_at` and `updated_at` Sequelize fills in; `false` names a stamp the table does
 * not have.
 */
export const stampedTable = <C extends Columns>(
  tableName: string,
  columns: C,
  stamps: { createdAt?: false; updatedAt?: false } = {},
) =>
  table(columns, (sequelize) => ({
    sequelize,
    tableName,
    underscored: true,
    createdAt: stamps.createdAt ?? 'created_at',
    updatedAt: stamps.updatedAt ?? 'updated_at',
  }));

/** The base of a model whose columns the code writes itself, stamps included. */
export const plainTable = <C extends Columns>(tableName: string, columns: C) =>
  table(columns, (sequelize) => ({ sequelize, tableName, timestamps: false }));
