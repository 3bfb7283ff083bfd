import { describe, expect, it } from 'vitest';
import { enclosingFunction } from '../src/sourcemaps/original-frame.ts';

const SOURCE = `import { chargeCard } from './payments';

export class Cart {
  total(items: number[]): number {
    return items.reduce((a, b) => a + b, 0);
  }
}

const pay = async (cents: number) => {
  return chargeCard(cents);
};

function checkout(total: number) {
  if (total > 0) {
    return pay(total);
  }
}
checkout(5000);
`.split('\n');

describe('the function around an original line', () => {
  it('names the enclosing function, method or arrow function, and none at the top of the module', () => {
    expect(enclosingFunction(SOURCE, 5)).toBe('total');
    expect(enclosingFunction(SOURCE, 10)).toBe('pay');
    expect(enclosingFunction(SOURCE, 15)).toBe('checkout');
    expect(enclosingFunction(SOURCE, 13)).toBe('checkout');
    // A call at the top level runs in no function (the map's name there is the callee, checkout).
    expect(enclosingFunction(SOURCE, 18)).toBeNull();
  });
});
