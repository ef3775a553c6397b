import { PassThrough, pipeline, Readable } from 'node:stream';
import type { Writable } from 'node:stream';
import { DateTime } from 'luxon';

/**
 * Lists as the files people open (issue 36 §2): CSV and XLSX written from the same rows as they come, so a list of
 * any length goes out in the memory of a batch. Well-kept libraries do the formats — csv-stringify (RFC 4180
 * quoting, the BOM, formula escaping) and exceljs's streaming WorkbookWriter (the OOXML parts, styles, the zip) —
 * and are loaded at the first export, not at boot (start-up time, issue 25). Knows no venue: the caller names the
 * time zone dates are shown in and the number format of money.
 */

export type TabularFormat = 'csv' | 'xlsx';

/** The media types, as sent (CSV declares its charset: the bytes are UTF-8, with a BOM). */
export const TABULAR_MEDIA_TYPES: Record<TabularFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * What a column holds, so each format can type it: `money` and `integer` are whole numbers (a spreadsheet sums
 * them); `datetime` is an instant shown at the wall-clock time of `timeZone`; `date` a calendar date
 * (`YYYY-MM-DD`, already local); `boolean` TRUE/FALSE.
 */
export type ColumnType = 'text' | 'integer' | 'money' | 'date' | 'datetime' | 'boolean';

export type CellValue = string | number | boolean | Date | null | undefined;

export interface TabularColumn<R> {
  header: string;
  type: ColumnType;
  value: (row: R) => CellValue;
  /** XLSX column width in characters (a default per type otherwise). */
  width?: number;
}

export interface TabularSheet<R> {
  /** The worksheet's name (XLSX; at most 31 characters, none of `[]:*?/\`). */
  name: string;
  columns: readonly TabularColumn<R>[];
  /** The rows, a batch at a time (keysetBatches, or one batch of a list already in hand). */
  rows: AsyncIterable<readonly R[]>;
}

export interface TabularOptions {
  /** IANA zone the `datetime` cells are shown in. */
  timeZone: string;
  /** XLSX number format of `money` cells, e.g. `#,##0 [$₫-42A]`. */
  moneyFormat: string;
  /** Called once the last byte is written, with the number of data rows. */
  onEnd?: (rows: number) => void;
}

const DATETIME_FORMAT = 'yyyy-mm-dd hh:mm';
const DATE_FORMAT = 'yyyy-mm-dd';
const WIDTHS: Record<ColumnType, number> = { text: 24, integer: 10, money: 16, date: 12, datetime: 18, boolean: 9 };

/** The file as a stream: CSV takes exactly one sheet; XLSX one worksheet per sheet, in order. */
export function tabularStream<R>(format: TabularFormat, sheets: ReadonlyArray<TabularSheet<R>>, options: TabularOptions): Readable {
  if (format === 'csv') {
    if (sheets.length !== 1) throw new Error('a CSV file holds one sheet');
    return csvStream(sheets[0], options);
  }
  return xlsxStream(sheets, options);
}

/** An instant's wall-clock time in `zone`, as the UTC fields of a Date: a spreadsheet cell has no time zone. */
function wallClock(instant: Date, zone: string): Date {
  return DateTime.fromJSDate(instant, { zone }).setZone('UTC', { keepLocalTime: true }).toJSDate();
}

const toInstant = (value: CellValue): Date | undefined => (value instanceof Date ? value : typeof value === 'string' ? new Date(value) : undefined);
const isEmpty = (value: CellValue) => value === null || value === undefined || value === '';

// ---- CSV --------------------------------------------------------------------------------------------------------

/** A CSV field: instants as local `YYYY-MM-DD HH:mm:ss` (what Excel and LibreOffice read as a date), numbers bare. */
function csvField(type: ColumnType, value: CellValue, zone: string): string | number {
  if (isEmpty(value)) return '';
  switch (type) {
    case 'integer':
    case 'money':
      return Number(value);
    case 'datetime':
      return DateTime.fromJSDate(toInstant(value)!, { zone }).toFormat('yyyy-LL-dd HH:mm:ss');
    case 'boolean':
      return value ? 'TRUE' : 'FALSE';
    default:
      return String(value);
  }
}

/**
 * UTF-8 with a byte-order mark, so Excel opens Vietnamese as Vietnamese rather than as Windows-1252; fields that
 * start like a formula (`=`, `+`, `-`, `@`) get a leading `'` (csv-stringify's `escape_formulas`): a guest's
 * name is never run as a formula by the spreadsheet that opens the file (OWASP "CSV injection").
 */
function csvStream<R>(sheet: TabularSheet<R>, options: TabularOptions): Readable {
  const output = new PassThrough();
  let count = 0;
  const records = async function* () {
    for await (const batch of sheet.rows) {
      for (const row of batch) {
        count++;
        yield sheet.columns.map((column) => csvField(column.type, column.value(row), options.timeZone));
      }
    }
  };
  import('csv-stringify')
    .then(({ stringify }) => {
      const stringifier = stringify({ bom: true, header: true, columns: sheet.columns.map((column) => column.header), escape_formulas: true, record_delimiter: 'windows' });
      // pipeline: an error anywhere destroys the rest (the response is cut short); a client that goes away destroys
      // `output`, which stops the rows' iteration (no further query).
      pipeline(Readable.from(records()), stringifier, output, (err) => {
        if (!err) options.onEnd?.(count);
      });
    })
    .catch((err) => output.destroy(err));
  return output;
}

// ---- XLSX -------------------------------------------------------------------------------------------------------

/** A typed XLSX cell value and its number format. */
function xlsxCell(type: ColumnType, value: CellValue, options: TabularOptions): { value: string | number | boolean | Date | null; numFmt?: string } {
  if (isEmpty(value)) return { value: null };
  switch (type) {
    case 'integer':
      return { value: Number(value), numFmt: '0' };
    case 'money':
      return { value: Number(value), numFmt: options.moneyFormat };
    case 'datetime':
      return { value: wallClock(toInstant(value)!, options.timeZone), numFmt: DATETIME_FORMAT };
    case 'date':
      // A calendar date: midnight UTC of that date is the date itself once read back without a zone.
      return { value: new Date(`${String(value).slice(0, 10)}T00:00:00Z`), numFmt: DATE_FORMAT };
    case 'boolean':
      return { value: Boolean(value) };
    default:
      return { value: String(value) };
  }
}

/** Resolves once `stream` may take more (drain), or is gone (close). */
function roomIn(stream: Writable): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/**
 * The worksheet's XML goes from exceljs into the zip through a pass-through archiver puts in front of its deflate
 * stream; exceljs writes into it without waiting, so a client slower than the database would pile the sheet up
 * there. Before each batch the writer waits until that stream and the response side have room: what is held is
 * about one batch. (`stream.pipes` is exceljs's StreamBuf's list of consumers, not a documented API: when it is
 * not there, only the response side is waited for.)
 */
function zipIntake(worksheet: unknown): Writable | undefined {
  const consumer = (worksheet as { stream?: { pipes?: unknown[] } }).stream?.pipes?.[0];
  return consumer && typeof (consumer as Writable).write === 'function' ? (consumer as Writable) : undefined;
}

function xlsxStream<R>(sheets: ReadonlyArray<TabularSheet<R>>, options: TabularOptions): Readable {
  const output = new PassThrough();
  const write = async () => {
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
    let count = 0;
    for (const sheet of sheets) {
      const worksheet = workbook.addWorksheet(sheet.name, { views: [{ state: 'frozen', ySplit: 1 }] });
      worksheet.columns = sheet.columns.map((column) => ({ width: column.width ?? WIDTHS[column.type] }));
      const header = worksheet.addRow(sheet.columns.map((column) => column.header));
      header.font = { bold: true };
      header.commit();
      for await (const batch of sheet.rows) {
        for (const row of batch) {
          const line = worksheet.addRow([]);
          sheet.columns.forEach((column, index) => {
            const cell = xlsxCell(column.type, column.value(row), options);
            if (cell.value === null) return;
            const target = line.getCell(index + 1);
            target.value = cell.value;
            if (cell.numFmt) target.numFmt = cell.numFmt;
          });
          line.commit();
          count++;
        }
        const intake = zipIntake(worksheet);
        if (intake) await roomIn(intake);
        await roomIn(output);
        // The client went away: leaving the loop ends the rows' iteration (no further query).
        if (output.destroyed) return;
      }
      worksheet.commit();
    }
    await workbook.commit();
    options.onEnd?.(count);
  };
  write().catch((err) => output.destroy(err));
  return output;
}
