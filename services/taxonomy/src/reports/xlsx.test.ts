import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readXlsx, rowValues } from '@green-impact/testing/shared/xlsx-reader';
import { column, xlsx, type SheetSpec } from './xlsx.js';
import { zip } from './zip.js';

const sheet: SheetSpec = {
  name: 'Totals',
  title: 'A <title> & more',
  fields: [['Year', { number: 2024, format: 'integer' }], ['Note', { text: ' padded\nand two lines ' }]],
  header: ['Name', 'Amount', 'Share'],
  rows: [
    [{ text: '=HYPERLINK("x")' }, { number: -1234.5, format: 'amount' }, { number: 0.125, format: 'percent' }],
    [{ text: 'bell\u0007 "quoted"' }, null, { number: 1, format: 'percent' }],
  ],
};

describe('XLSX writer', () => {
  it('names columns as spreadsheets do', () => {
    assert.deepEqual([0, 25, 26, 51, 52, 701, 702].map(column), ['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
  });

  it('writes a workbook a reader opens: header block, frozen column headers, typed and formatted cells, widths', () => {
    const book = readXlsx(xlsx([sheet, { ...sheet, name: 'Second', rows: [] }], 3));
    assert.deepEqual(book.entries, [
      '[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml',
    ]);
    const [s, second] = book.sheets;
    assert.deepEqual([s!.name, second!.name], ['Totals', 'Second']);
    // Title on row 1, the fields on rows 2 and 3, a blank row 4, the column headers on row 5 (frozen), lines from 6.
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map((r) => rowValues(s!, r, 3)), [
      ['A <title> & more', null, null],
      ['Year', 2024, null],
      ['Note', ' padded\nand two lines ', null],
      [null, null, null],
      ['Name', 'Amount', 'Share'],
      ['=HYPERLINK("x")', -1234.5, 0.125],
      ['bell "quoted"', null, 1],
    ]);
    assert.equal(s!.frozenRows, 5);
    assert.equal(second!.frozenRows, 5);
    const cell = (ref: string) => s!.cells.get(ref)!;
    assert.deepEqual([cell('A6').type, cell('B6').type, cell('C6').type, cell('B2').type], ['text', 'number', 'number', 'number']);
    assert.deepEqual([cell('B6').format, cell('C6').format, cell('B2').format, cell('A6').format], ['#,##0.000', '0.000%', '0', 'General']);
    assert.deepEqual([cell('A1').bold, cell('A5').bold, cell('A2').bold, cell('A6').bold], [true, true, true, false]);
    // Name: '=HYPERLINK("x")' is 15 long; Amount: "-1,234.500" 10; Share: "100.000%" 8, at least 8, each + 2.
    assert.deepEqual(s!.widths, [17, 12, 10]);
  });

  it('writes the same bytes for the same input, and these bytes', () => {
    const bytes = xlsx([sheet], 2);
    assert.deepEqual(xlsx([sheet], 2), bytes);
    // Pinned: a document's hash is anchored on chain, so any change of its bytes must be deliberate.
    assert.equal(createHash('sha256').update(bytes).digest('hex'), '89349cb763168ae34d344d376a507786c0a05a7852e678f9b9180f8634018085');
  });
});

describe('ZIP writer', () => {
  it('stores the entries uncompressed, dated 1980-01-01 00:00, with their CRC-32', () => {
    const bytes = zip([{ name: 'a.txt', data: Buffer.from('hello') }, { name: 'b/c.xml', data: Buffer.from('<x/>') }]);
    // Local header of a.txt: signature, version 20, flags 0, method 0 (stored), time 0, date 0x0021,
    // CRC-32 of "hello" 0x3610a686, sizes 5 and 5, name length 5, extra 0.
    assert.equal(bytes.subarray(0, 30).toString('hex'), '504b0304' + '1400' + '0000' + '0000' + '0000' + '2100' + '86a61036' + '05000000' + '05000000' + '0500' + '0000');
    assert.equal(bytes.subarray(30, 40).toString('latin1'), 'a.txthello');
    // End of central directory: 2 entries, the directory after the two local entries (30+5+5 and 30+7+4).
    const end = bytes.subarray(bytes.length - 22);
    assert.deepEqual([end.readUInt32LE(0), end.readUInt16LE(10), end.readUInt32LE(16)], [0x06054b50, 2, 81]);
  });
});
