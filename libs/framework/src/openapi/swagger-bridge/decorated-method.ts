/** The method being decorated, as a method decorator receives it. */
export interface DecoratedMethod {
  target: object;
  key: string | symbol;
  descriptor: PropertyDescriptor;
}

/** Applies one of swagger's method decorators to the method being decorated, there and then. */
export function apply(
  decorator: MethodDecorator,
  { target, key, descriptor }: DecoratedMethod,
): void {
  decorator(target, key, descriptor);
}
