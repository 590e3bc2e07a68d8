/**
 * Decompression bombs: small PNG files whose header declares a huge image, written here rather
 * than kept in the repository. Every row is zeros, so the compressed data is about a thousandth
 * of the pixels' bytes (16,000 × 16,000 at 1 bit: 31 KB; 10,000 × 10,000 RGB: 291 KB).
 */
import { createDeflate, crc32 } from 'node:zlib';

export interface BombShape {
  readonly width: number;
  readonly height: number;
  /** 1 (grey, 1 bit) or 3 (RGB, 8 bits). */
  readonly channels: 1 | 3;
}

/** The 16,000 × 16,000 1-bit grey PNG of 31 KB: 256 M pixels. */
export const GREY_BOMB: BombShape = { width: 16_000, height: 16_000, channels: 1 };
/** The 10,000 × 10,000 RGB PNG of 291 KB: 100 M pixels. */
export const RGB_BOMB: BombShape = { width: 10_000, height: 10_000, channels: 3 };

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** The scanlines (filter byte 0, then zeros), deflated a batch of rows at a time. */
function deflatedRows(rowBytes: number, rows: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const deflate = createDeflate({ level: 9 });
    const parts: Buffer[] = [];
    deflate.on('data', (data: Buffer) => parts.push(data));
    deflate.on('end', () => resolve(Buffer.concat(parts)));
    deflate.on('error', reject);
    const rowsPerBatch = Math.max(1, Math.floor((1 << 20) / rowBytes));
    const batch = Buffer.alloc(rowsPerBatch * rowBytes);
    let written = 0;
    const pump = (): void => {
      while (written < rows) {
        const count = Math.min(rowsPerBatch, rows - written);
        written += count;
        if (!deflate.write(batch.subarray(0, count * rowBytes))) return void deflate.once('drain', pump);
      }
      deflate.end();
    };
    pump();
  });
}

/** A PNG of `shape`, all black. */
export async function bombPng(shape: BombShape = GREY_BOMB): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(shape.width, 0);
  header.writeUInt32BE(shape.height, 4);
  header[8] = shape.channels === 1 ? 1 : 8; // bit depth
  header[9] = shape.channels === 1 ? 0 : 2; // grey or RGB
  const rowBytes = 1 + (shape.channels === 1 ? Math.ceil(shape.width / 8) : shape.width * 3);
  const data = await deflatedRows(rowBytes, shape.height);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', data), chunk('IEND', Buffer.alloc(0))]);
}
