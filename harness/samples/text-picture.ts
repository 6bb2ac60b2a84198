// Pictures of text: lines of dark text on a white page, drawn with @napi-rs/canvas in the Liberation
// Sans font that pdf.js ships (pdfjs-dist/standard_fonts), so the pixels do not depend on the
// fonts a machine happens to have. A suite uploads them as screenshots (PNG, JPEG, WebP) or as the
// page of a scanned PDF (scanned-pdf.ts) to see whether a server reads the words in them.
import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';

export interface TextPictureOptions {
  /** Font size in pixels (default 40: about 12 pt scanned at 240 dpi). */
  fontPixels?: number;
  /** Page width in pixels (default 1000). */
  width?: number;
}

/** A drawn page: 8-bit grey pixels, row by row, plus its width and height. */
export interface GreyPicture {
  width: number;
  height: number;
  grey: Uint8Array;
}

const FONT_FAMILY = 'Sample Liberation Sans';
let fontRegistered = false;

function registerFont(): void {
  if (fontRegistered) return;
  const require = createRequire(import.meta.url);
  const fontPath = require.resolve('pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf');
  if (!GlobalFonts.registerFromPath(fontPath, FONT_FAMILY)) throw new Error(`Could not load the sample font ${fontPath}`);
  fontRegistered = true;
}

function drawText(lines: readonly string[], options: TextPictureOptions) {
  registerFont();
  const fontPixels = options.fontPixels ?? 40;
  const width = options.width ?? 1000;
  const lineHeight = Math.round(fontPixels * 1.6);
  const margin = fontPixels;
  const height = margin * 2 + lineHeight * Math.max(lines.length, 1);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#111111';
  context.font = `${fontPixels}px "${FONT_FAMILY}"`;
  context.textBaseline = 'alphabetic';
  lines.forEach((line, index) => context.fillText(line, margin, margin + fontPixels + index * lineHeight));
  return { canvas, context, width, height };
}

/** The lines drawn as a PNG (or JPEG / WebP, for the other accepted image types). */
export function textPicture(
  lines: readonly string[],
  type: 'image/png' | 'image/jpeg' | 'image/webp' = 'image/png',
  options: TextPictureOptions = {},
): Uint8Array {
  const { canvas } = drawText(lines, options);
  const bytes =
    type === 'image/png' ? canvas.toBuffer('image/png') : type === 'image/jpeg' ? canvas.toBuffer('image/jpeg', 90) : canvas.toBuffer('image/webp', 90);
  return new Uint8Array(bytes);
}

/** The lines drawn as grey pixels, for embedding as a page image. */
export function textPictureGrey(lines: readonly string[], options: TextPictureOptions = {}): GreyPicture {
  const { context, width, height } = drawText(lines, options);
  const rgba = context.getImageData(0, 0, width, height).data;
  const grey = new Uint8Array(width * height);
  for (let pixel = 0; pixel < grey.length; pixel += 1) {
    // Rec. 601 luma; the picture is black on white, so this is exact where it matters.
    grey[pixel] = Math.round(0.299 * rgba[pixel * 4]! + 0.587 * rgba[pixel * 4 + 1]! + 0.114 * rgba[pixel * 4 + 2]!);
  }
  return { width, height, grey };
}
