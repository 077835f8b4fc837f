// DESIGN 15: a résumé is recognised by its bytes, never by its name or declared type.

export const MAX_RESUME_BYTES = 5 * 1024 * 1024;

export type ResumeKind = { contentType: string; extension: string };

const PDF: ResumeKind = { contentType: "application/pdf", extension: "pdf" };
const DOCX: ResumeKind = { contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", extension: "docx" };
const TEXT: ResumeKind = { contentType: "text/plain; charset=utf-8", extension: "txt" };

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/**
 * The file names in a zip's central directory (bounded: at most 1 000 entries, read from the
 * end-of-central-directory record within the last 64 KiB + 22 bytes, as the format puts it).
 */
function zipEntries(bytes: Uint8Array): string[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const floor = Math.max(0, bytes.length - 65_557);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= floor; i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if (count > 1000) return null;
  const names: string[] = [];
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== 0x02014b50) return null;
    const nameLength = view.getUint16(offset + 28, true);
    const extra = view.getUint16(offset + 30, true);
    const comment = view.getUint16(offset + 32, true);
    if (offset + 46 + nameLength > bytes.length) return null;
    names.push(decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength)));
    offset += 46 + nameLength + extra + comment;
  }
  return names;
}

/** UTF-8 with no control characters but tab, CR and LF, not starting like markup. */
function isPlainText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return false;
  }
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) return false;
  return !/^\s*<[\p{L}!?/]/u.test(text.replace(/^\ufeff/, ""));
}

/** What the file is, or null when it is none of PDF, DOCX and plain text. */
export function recogniseResume(bytes: Uint8Array): ResumeKind | null {
  if (bytes.length === 0) return null;
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return PDF; // %PDF-
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    const names = zipEntries(bytes);
    return names?.includes("[Content_Types].xml") && names.includes("word/document.xml") ? DOCX : null;
  }
  return isPlainText(bytes) ? TEXT : null;
}
