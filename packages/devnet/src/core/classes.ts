import { ContractExecutionError } from './errors';
import type { ClassLookup, NativeClass, NativeFunction } from './execution';
import { Felt, selectorFromName, toHex } from './felt';
import type { SierraContractClass } from './hashing';
import { STARKNET_VERSION } from './constants';
import { expectedCompiledClassHash } from './nativeCasm';

export function defineNativeClass(
  name: string,
  classHash: string,
  abi: unknown[],
  functions: Record<string, NativeFunction>,
  constructorFn?: NativeFunction,
  l1Handlers: Record<string, NativeFunction> = {},
): NativeClass {
  const bySelector = new Map<Felt, NativeFunction>();
  const names = new Map<Felt, string>();
  for (const [fnName, fn] of Object.entries(functions)) {
    const selector = selectorFromName(fnName);
    bySelector.set(selector, fn);
    names.set(selector, fnName);
  }
  for (const fnName of Object.keys(l1Handlers)) names.set(selectorFromName(fnName), fnName);
  return {
    name,
    classHash: BigInt(classHash),
    abi,
    functions: bySelector,
    functionNames: names,
    constructorFn,
    l1Handlers: new Map(
      Object.entries(l1Handlers).map(([fnName, fn]) => [selectorFromName(fnName), fn]),
    ),
  };
}

export interface ClassRecord {
  classHash: Felt;
  compiledClassHash: Felt;
  /** The class as getClass returns it. */
  sierra: SierraContractClass;
  native?: NativeClass;
  declaredAtBlock: number;
  /** Entry point names from the ABI, for the explorer. */
  functionNames: Map<Felt, string>;
}

function nativeSierraView(native: NativeClass): SierraContractClass {
  const external = [...native.functions.keys()].map((selector, index) => ({
    selector: toHex(selector),
    function_idx: index,
  }));
  const constructor = native.constructorFn
    ? [{ selector: toHex(selectorFromName('constructor')), function_idx: external.length }]
    : [];
  const l1Handlers = [...(native.l1Handlers?.keys() ?? [])].map((selector, index) => ({
    selector: toHex(selector),
    function_idx: external.length + constructor.length + index,
  }));
  return {
    // Native classes run in TypeScript: there is no Sierra program to serve.
    sierra_program: [],
    contract_class_version: '0.1.0',
    entry_points_by_type: { EXTERNAL: external, L1_HANDLER: l1Handlers, CONSTRUCTOR: constructor },
    abi: JSON.stringify(native.abi),
  };
}

function abiFunctionNames(abi: string): Map<Felt, string> {
  const names = new Map<Felt, string>();
  const visit = (items: unknown): void => {
    if (!Array.isArray(items)) return;
    for (const item of items) {
      if (item && typeof item === 'object') {
        const entry = item as { type?: string; name?: string; items?: unknown };
        if (entry.type === 'function' && typeof entry.name === 'string') {
          names.set(selectorFromName(entry.name), entry.name);
        }
        if (entry.type === 'interface') visit(entry.items);
      }
    }
  };
  try {
    visit(JSON.parse(abi));
  } catch {
    // An unparsable ABI still declares; it only means the explorer shows selectors.
  }
  return names;
}

/** Declared classes with the block each was declared in. */
export class ClassStore implements ClassLookup {
  private readonly classes = new Map<Felt, ClassRecord>();

  addNative(native: NativeClass, block: number): void {
    this.classes.set(native.classHash, {
      classHash: native.classHash,
      compiledClassHash: expectedCompiledClassHash(native.classHash, STARKNET_VERSION) ?? 0n,
      sierra: nativeSierraView(native),
      native,
      declaredAtBlock: block,
      functionNames: native.functionNames,
    });
  }

  addDeclared(
    classHash: Felt,
    compiledClassHash: Felt,
    sierra: SierraContractClass,
    block: number,
  ): void {
    this.classes.set(classHash, {
      classHash,
      compiledClassHash,
      sierra,
      declaredAtBlock: block,
      functionNames: abiFunctionNames(sierra.abi),
    });
  }

  remove(classHash: Felt): void {
    this.classes.delete(classHash);
  }

  /** Forgets the classes declared at `block` and after (devnet_abortBlocks). */
  removeDeclaredFrom(block: number): void {
    for (const [hash, record] of this.classes) {
      if (!record.native && record.declaredAtBlock >= block) this.classes.delete(hash);
    }
  }

  get(classHash: Felt, atBlock: number): ClassRecord | undefined {
    const record = this.classes.get(classHash);
    return record && record.declaredAtBlock <= atBlock ? record : undefined;
  }

  /** The native implementation to run, or a clear error when the class cannot be executed here. */
  executable(classHash: Felt, address: Felt): NativeClass {
    const record = this.classes.get(classHash);
    if (!record)
      throw new ContractExecutionError(`Class with hash ${toHex(classHash)} is not declared`);
    if (!record.native) {
      throw new ContractExecutionError(
        `Contract ${toHex(address)} has class ${toHex(classHash)}, which is declared but cannot be executed by this devnet (only its native classes run: accounts, ERC-20, UDC)`,
      );
    }
    return record.native;
  }

  entryPointName(classHash: Felt, selector: Felt): string | undefined {
    return this.classes.get(classHash)?.functionNames.get(selector);
  }

  declaredIn(block: number): ClassRecord[] {
    return [...this.classes.values()].filter((r) => r.declaredAtBlock === block && !r.native);
  }
}
