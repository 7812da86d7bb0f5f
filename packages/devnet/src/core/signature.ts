import { CURVE, ProjectivePoint as Point } from '@scure/starknet';
import { Felt, FIELD_PRIME } from './felt';

type StarkPoint = InstanceType<typeof Point>;

const CURVE_ORDER = CURVE.n;
const MAX_HASH = 2n ** 251n;

/** Public key points are reused for every transaction of an account: precompute them once. */
const keyPoints = new Map<Felt, StarkPoint | null>();
const KEY_CACHE_LIMIT = 10_000;

function keyPoint(publicKeyX: Felt): StarkPoint | null {
  let point = keyPoints.get(publicKeyX);
  if (point === undefined) {
    try {
      point = Point.fromHex('02' + publicKeyX.toString(16).padStart(64, '0'));
      // A wNAF window of 8 makes the per-signature multiplication by the key several times faster.
      point.precompute(8);
    } catch {
      point = null;
    }
    if (keyPoints.size >= KEY_CACHE_LIMIT) keyPoints.clear();
    keyPoints.set(publicKeyX, point);
  }
  return point;
}

function invertModOrder(value: bigint): bigint {
  let [a, b] = [value % CURVE_ORDER, CURVE_ORDER];
  let [x0, x1] = [1n, 0n];
  while (b !== 0n) {
    const q = a / b;
    [a, b] = [b, a - q * b];
    [x0, x1] = [x1, x0 - q * x1];
  }
  return ((x0 % CURVE_ORDER) + CURVE_ORDER) % CURVE_ORDER;
}

const FIELD_P = FIELD_PRIME;

/**
 * Whether the point's affine x, reduced mod n, is r; compared projectively (x = X/Z), no inversion.
 */
function xMatches(point: StarkPoint, r: Felt): boolean {
  if (point.is0()) return false;
  const { X, Z } = point;
  if (X === (r * Z) % FIELD_P) return true;
  // x in [n, p) also reduces to r = x - n.
  return r + CURVE_ORDER < FIELD_P && X === ((r + CURVE_ORDER) * Z) % FIELD_P;
}

/**
 * Public inputs only, so the variable-time (faster) multiplications are fine here.
 *
 * Stark ECDSA check as Cairo's `check_ecdsa_signature` does it: the key is given by its x
 * coordinate only, so the signature is valid against either of the two points with that x.
 */
export function verifyStarkSignature(hash: Felt, r: Felt, s: Felt, publicKeyX: Felt): boolean {
  if (hash >= MAX_HASH || r < 1n || r >= MAX_HASH || s < 1n || s >= CURVE_ORDER) return false;
  const key = keyPoint(publicKeyX);
  if (!key) return false;
  const w = invertModOrder(s);
  const u1 = (hash * w) % CURVE_ORDER;
  const fromBase = u1 === 0n ? Point.ZERO : Point.BASE.multiplyUnsafe(u1);
  const u2 = (r * w) % CURVE_ORDER;
  if (u2 === 0n) return false;
  const fromKey = key.multiplyUnsafe(u2);
  return xMatches(fromBase.add(fromKey), r) || xMatches(fromBase.subtract(fromKey), r);
}
