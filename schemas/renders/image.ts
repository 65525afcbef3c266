import { z } from 'zod';

/** One rectangle of a sprite sheet, in the sheet's pixels, named by whatever drew the sheet. */
export const ImageFrame = z.looseObject({
  name: z.string().min(1),
  x: z.number().int().nonnegative(),
  y: z.number().int().nonnegative(),
  w: z.number().int().positive(),
  h: z.number().int().positive(),
});

/**
 * The `image` render's payload. Absent, `null` or `{}` draws the before and after of each image;
 * with `frames`, the viewer also compares the pixels of each frame and shows the ones that changed.
 */
export const ImagePayload = z
  .looseObject({
    frames: z
      .array(ImageFrame)
      .optional()
      .describe('Frame rectangles of a sprite sheet; only the changed ones are drawn.'),
  })
  .nullish();

export type ImageFrame = z.infer<typeof ImageFrame>;
export type ImagePayload = z.infer<typeof ImagePayload>;
