// A small, reproducible tar writer (POSIX ustar with PAX headers for long names): entries are written
// in the order given, with the mtime, owner and mode they carry, and nothing from the host.
import { createHash } from 'node:crypto';

const block = 512;

function octal(value, length) {
  return value.toString(8).padStart(length - 1, '0') + '\0';
}

function header(fields) {
  const buffer = Buffer.alloc(block);
  buffer.write(fields.name, 0, 100, 'utf8');
  buffer.write(octal(fields.mode, 8), 100, 8, 'ascii');
  buffer.write(octal(fields.uid, 8), 108, 8, 'ascii');
  buffer.write(octal(fields.gid, 8), 116, 8, 'ascii');
  buffer.write(octal(fields.size, 12), 124, 12, 'ascii');
  buffer.write(octal(fields.mtime, 12), 136, 12, 'ascii');
  buffer.write('        ', 148, 8, 'ascii');
  buffer.write(fields.type, 156, 1, 'ascii');
  buffer.write(fields.linkname ?? '', 157, 100, 'utf8');
  buffer.write('ustar\x0000', 257, 8, 'ascii');
  buffer.write(fields.uid === 0 ? 'root' : 'nonroot', 265, 32, 'ascii');
  buffer.write(fields.gid === 0 ? 'root' : 'nonroot', 297, 32, 'ascii');
  let sum = 0;
  for (const byte of buffer) sum += byte;
  buffer.write(octal(sum, 7) + ' ', 148, 8, 'ascii');
  return buffer;
}

function padding(size) {
  const rest = size % block;
  return rest === 0 ? Buffer.alloc(0) : Buffer.alloc(block - rest);
}

/** A PAX extended header record: "<length> path=<value>\n", the length counting itself. */
function paxRecord(key, value) {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length += 1;
  return `${length}${body}`;
}

/**
 * Tar bytes of `entries` ({path, type: 'file' | 'dir' | 'symlink', data?, target?, mode, uid, gid}),
 * all with `mtime` (seconds). Paths are relative (no leading slash); directories end without a slash here.
 */
export function tarBytes(entries, mtime) {
  const parts = [];
  for (const entry of entries) {
    const name = entry.type === 'dir' ? `${entry.path}/` : entry.path;
    const data = entry.type === 'file' ? entry.data : Buffer.alloc(0);
    const type = { file: '0', dir: '5', symlink: '2' }[entry.type];
    const base = { mode: entry.mode, uid: entry.uid, gid: entry.gid, mtime };
    if (Buffer.byteLength(name) > 100 || Buffer.byteLength(entry.target ?? '') > 100) {
      const records = Buffer.from(paxRecord('path', name) + (entry.target ? paxRecord('linkpath', entry.target) : ''));
      parts.push(header({ ...base, name: 'PaxHeader', size: records.length, type: 'x', mode: 0o644 }), records, padding(records.length));
    }
    parts.push(header({ ...base, name: name.slice(0, 100), size: data.length, type, linkname: entry.target }), data, padding(data.length));
  }
  parts.push(Buffer.alloc(block * 2));
  return Buffer.concat(parts);
}

/** sha256 hex of bytes. */
export function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}
