import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { expect } from 'chai';
import type { TestResponse } from '../../helpers/server.ts';

/** Reading exports back as their readers would (issue 36 §2, "Done when"): csv-parse, exceljs, pdftotext. */

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The CSV's records by header, after checking it is UTF-8 with a BOM and CRLF line ends. */
export function csvRecords(res: TestResponse): Array<Record<string, string>> {
  expect(res.status, res.text.slice(0, 500)).to.equal(200);
  expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
  expect(res.bytes.subarray(0, 3).equals(BOM), 'starts with a UTF-8 byte-order mark').to.equal(true);
  expect(res.bytes.toString('utf8')).to.include('\r\n');
  return parse(res.bytes, { bom: true, columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;
}

/** The workbook, after checking the media type. */
export async function workbookOf(res: TestResponse): Promise<ExcelJS.Workbook> {
  expect(res.status, res.text.slice(0, 500)).to.equal(200);
  expect(res.headers.get('content-type')).to.equal('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.bytes as unknown as ExcelJS.Buffer);
  return workbook;
}

/** A worksheet's rows as header → cell, from the header row. */
export function sheetRows(sheet: ExcelJS.Worksheet): Array<Record<string, ExcelJS.Cell>> {
  const headers = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: Array<Record<string, ExcelJS.Cell>> = [];
  for (let index = 2; index <= sheet.rowCount; index++) {
    const row = sheet.getRow(index);
    rows.push(Object.fromEntries(headers.map((header, column) => [header, row.getCell(column + 1)])));
  }
  return rows;
}

export const hasPdftotext = async () => {
  try {
    await promisify(execFile)('pdftotext', ['-v']);
    return true;
  } catch {
    return false;
  }
};

/** The PDF's text as poppler's pdftotext extracts it (layout kept). */
export async function pdfText(res: TestResponse): Promise<string> {
  expect(res.status, res.text.slice(0, 500)).to.equal(200);
  expect(res.headers.get('content-type')).to.equal('application/pdf');
  return pdfBytesText(res.bytes);
}

/** The text of PDF bytes as poppler's pdftotext extracts it (layout kept). */
export async function pdfBytesText(bytes: Buffer): Promise<string> {
  expect(bytes.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'venue-pdf-'));
  try {
    const file = path.join(dir, 'list.pdf');
    await fs.writeFile(file, bytes);
    const { stdout } = await promisify(execFile)('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-']);
    return stdout;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The file name a browser saves: `filename*` (RFC 5987) when present, else `filename`. */
export function savedName(res: TestResponse): string {
  const header = res.headers.get('content-disposition') ?? '';
  expect(header).to.match(/^attachment; filename="[\x20-\x7e]+"/);
  const extended = /filename\*=UTF-8''([^;]+)/.exec(header);
  return extended ? decodeURIComponent(extended[1]) : /filename="([^"]+)"/.exec(header)![1];
}
