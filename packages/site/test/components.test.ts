/**
 * A component keeps at most six pieces of useState: past that its state moves into a hook
 * (src/hooks/) or a reducer, where it can be read and tested apart from the markup.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SRC = path.join(__dirname, '../src');
const MAX_STATES = 6;

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsxFiles(full);
    return entry.name.endsWith('.tsx') ? [full] : [];
  });
}

/** Each function in `file` that calls useState, with how many times it does (its own calls). */
function useStatesPerFunction(file: string): Map<string, number> {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const counts = new Map<string, number>();
  const visit = (node: ts.Node, owner: string | undefined) => {
    let current = owner;
    if (ts.isFunctionLike(node)) {
      const name =
        ts.isFunctionDeclaration(node) && node.name
          ? node.name.text
          : ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)
            ? node.parent.name.text
            : `<function at ${source.getLineAndCharacterOfPosition(node.pos).line + 1}>`;
      current = `${path.relative(SRC, file)} ${name}`;
    }
    // useState(...) or React.useState(...)
    const callee = ts.isCallExpression(node)
      ? ts.isPropertyAccessExpression(node.expression)
        ? node.expression.name
        : node.expression
      : undefined;
    if (current && callee && ts.isIdentifier(callee) && callee.text === 'useState') {
      counts.set(current, (counts.get(current) ?? 0) + 1);
    }
    ts.forEachChild(node, (child) => visit(child, current));
  };
  visit(source, undefined);
  return counts;
}

describe('the site components', () => {
  const counts = new Map(tsxFiles(SRC).flatMap((file) => [...useStatesPerFunction(file)]));

  it('are found, with their useStates counted', () => {
    expect(counts.get('components/EvmAccountsPanel.tsx EvmAccountsPanel')).toBe(3);
    expect(counts.get('starknetReact/SponsoredPanel.tsx SponsoredPanel')).toBeGreaterThan(0);
  });

  it(`keep at most ${MAX_STATES} useStates each`, () => {
    const over = [...counts].filter(([, count]) => count > MAX_STATES);
    expect(over).toEqual([]);
  });
});
