// What TypeScript emits for decorators (its `__decorate`, `__param` and `__metadata` helpers),
// so this plain JavaScript app is what `tsc` would make of a decorated Nest app.
import 'reflect-metadata';

/**
 * Applies method decorators (listed top to bottom as they would be written) and keeps the
 * descriptor they return, as TypeScript does.
 */
export function decorateMethod(target, key, decorators) {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, Reflect.decorate(decorators, target, key, descriptor));
}

/** A parameter decorator for the parameter at `index`, usable in {@link decorateMethod}. */
export function param(index, decorator) {
  return (target, key) => decorator(target, key, index);
}

/** The parameter types TypeScript records with `emitDecoratorMetadata`. */
export function paramTypes(...types) {
  return Reflect.metadata('design:paramtypes', types);
}
