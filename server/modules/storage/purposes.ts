import type { BlobPurpose } from './models.ts';

export interface PurposeRule {
  /** Largest object, bytes. */
  maxBytes: number;
  /** Declared content types taken (the bytes must be what is declared: checked by magic bytes). */
  types: string[];
  /** Served without credentials by the public asset route (images for the website). */
  public: boolean;
}

const IMAGES = ['image/png', 'image/jpeg', 'image/webp', 'image/avif', 'image/gif'];
const MiB = 1024 * 1024;

/** What each purpose takes. The upload operations' `x-max-upload-bytes` are the largest of these plus form overhead. */
export const PURPOSES: Record<BlobPurpose, PurposeRule> = {
  'show-image': { maxBytes: 10 * MiB, types: IMAGES, public: true },
  sticker: { maxBytes: 2 * MiB, types: ['image/png', 'image/webp'], public: true },
  'seed-asset': { maxBytes: 20 * MiB, types: [...IMAGES, 'application/pdf', 'text/plain', 'text/csv', 'application/json'], public: false },
  attachment: { maxBytes: 10 * MiB, types: [...IMAGES, 'application/pdf', 'text/plain', 'text/csv'], public: false },
};

/** File name extensions for keys (the key never carries the client's file name). */
export const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'application/json': 'json',
};
