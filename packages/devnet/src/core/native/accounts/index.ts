/** The native account classes; the devnet validates transactions for these and no others. */
import type { NativeClass } from '../../execution';
import { argentAccountClass } from './argent';
import { ozAccountClass } from './openzeppelin';

export { argentAccountClass, ozAccountClass };

/** Whether a class is one of the account classes the devnet can validate transactions for. */
export function isAccountClass(native: NativeClass | undefined): boolean {
  return native === argentAccountClass || native === ozAccountClass;
}
