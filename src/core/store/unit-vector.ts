/**
 * Vectors at unit length, as the store keeps them: every vector written (arrow-build.ts) and every query vector
 * (snapshot.ts), so that `1 − a·b` is the cosine distance (ann-params.ts vectorDistance).
 */

/** The `dim` values at `at` scaled to unit length, in place (left as they are at norm 0, or 1 to float precision). */
export function toUnitLength(flat: Float32Array, at = 0, dim = flat.length - at): void {
  let sum = 0;
  for (let j = at; j < at + dim; j++) sum += flat[j]! * flat[j]!;
  if (sum === 0 || Math.abs(sum - 1) <= 1e-6) return;
  const scale = 1 / Math.sqrt(sum);
  for (let j = at; j < at + dim; j++) flat[j] = flat[j]! * scale;
}
