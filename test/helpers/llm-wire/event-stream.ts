import { crc32 } from 'node:zlib';

const stringHeaderType = 7;
const preludeLength = 12;
const checksumLength = 4;

function encodeHeader(name: string, value: string): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  const valueBytes = Buffer.from(value, 'utf8');
  const header = Buffer.alloc(1 + nameBytes.length + 1 + 2 + valueBytes.length);
  header.writeUInt8(nameBytes.length, 0);
  nameBytes.copy(header, 1);
  header.writeUInt8(stringHeaderType, 1 + nameBytes.length);
  header.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
  valueBytes.copy(header, 4 + nameBytes.length);
  return header;
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value >>> 0, 0);
  return bytes;
}

/**
 * Encodes one `application/vnd.amazon.eventstream` message: prelude (total length,
 * headers length, prelude CRC32), string headers, payload, message CRC32.
 */
export function encodeEventStreamMessage(headers: Record<string, string>, payload: Buffer): Buffer {
  const headerBytes = Buffer.concat(Object.entries(headers).map(([name, value]) => encodeHeader(name, value)));
  const totalLength = preludeLength + headerBytes.length + payload.length + checksumLength;
  const prelude = Buffer.concat([uint32(totalLength), uint32(headerBytes.length)]);
  const withoutChecksum = Buffer.concat([prelude, uint32(crc32(prelude)), headerBytes, payload]);
  return Buffer.concat([withoutChecksum, uint32(crc32(withoutChecksum))]);
}

/** A Bedrock ConverseStream event frame. */
export function encodeBedrockEvent(eventType: string, payload: unknown): Buffer {
  const headers = { ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' };
  return encodeEventStreamMessage(headers, Buffer.from(JSON.stringify(payload), 'utf8'));
}

export interface DecodedEventStreamMessage {
  headers: Record<string, string>;
  payload: Buffer;
}

/** Decodes one message and verifies both checksums (used to test the encoder). */
export function decodeEventStreamMessage(message: Buffer): DecodedEventStreamMessage {
  const totalLength = message.readUInt32BE(0);
  const headersLength = message.readUInt32BE(4);
  if (message.readUInt32BE(8) !== crc32(message.subarray(0, 8))) throw new Error('prelude checksum mismatch');
  const end = totalLength - checksumLength;
  if (message.readUInt32BE(end) !== crc32(message.subarray(0, end))) throw new Error('message checksum mismatch');
  const headers: Record<string, string> = {};
  let offset = preludeLength;
  while (offset < preludeLength + headersLength) {
    const nameLength = message.readUInt8(offset);
    const name = message.toString('utf8', offset + 1, offset + 1 + nameLength);
    const valueLength = message.readUInt16BE(offset + 2 + nameLength);
    const valueStart = offset + 4 + nameLength;
    headers[name] = message.toString('utf8', valueStart, valueStart + valueLength);
    offset = valueStart + valueLength;
  }
  return { headers, payload: message.subarray(preludeLength + headersLength, end) };
}
