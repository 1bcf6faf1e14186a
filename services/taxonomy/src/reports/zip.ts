import { crc32 } from 'node:zlib';

/**
 * A ZIP archive (PKWARE APPNOTE 6.3, the subset Office Open XML uses) of the given entries, in the given
 * order, each STORED (method 0, not compressed) with the fixed DOS time 1980-01-01 00:00 and no extra fields,
 * so the same entries always give the same bytes. Not deflated on purpose: deflate's output is not fixed by
 * its input (Node's zlib is Chromium's fork, whose output depends on the CPU's instructions and the zlib
 * version), and the documents are hashed and anchored, so their bytes must not move with the machine
 * (docs/decisions.md). Names are ASCII here; sizes stay far below ZIP64's 4 GiB.
 */
export interface ZipEntry {
  name: string;
  data: Buffer;
}

const DOS_TIME = 0; // 00:00:00
const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01, the earliest DOS date
const VERSION = 20; // 2.0: what a reader needs for stored entries and folders in names

/**
 * The 26 bytes a local header (at 4) and a central directory header (at 6) share: version needed, flags,
 * method (0, stored), DOS time and date, CRC-32, compressed and uncompressed size, name length, extra length.
 */
function common(header: Buffer, at: number, crc: number, size: number, nameLength: number): void {
  header.writeUInt16LE(VERSION, at);
  header.writeUInt16LE(DOS_TIME, at + 6);
  header.writeUInt16LE(DOS_DATE, at + 8);
  header.writeUInt32LE(crc, at + 10);
  header.writeUInt32LE(size, at + 14);
  header.writeUInt32LE(size, at + 18);
  header.writeUInt16LE(nameLength, at + 22);
  // flags (at + 2), method (at + 4) and extra length (at + 24) stay 0: Buffer.alloc zeroes them
}

export function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'ascii');
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    common(local, 4, crc, e.data.length, name.length);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(VERSION, 4); // made by: MS-DOS attributes, version 2.0
    common(central, 6, crc, e.data.length, name.length);
    // comment length, disk, internal and external attributes stay 0
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += local.length + name.length + e.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
