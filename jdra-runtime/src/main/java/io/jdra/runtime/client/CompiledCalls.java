package io.jdra.runtime.client;

import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Constructors and getters called through a class {@link LambdaMetafactory} makes, which the JIT
 * inlines, instead of a method handle held in a field, which it does not ({@link DirectCreators},
 * {@link ScalarWrite}, {@link CompiledSetters}).
 */
final class CompiledCalls {
  private CompiledCalls() {}

  /** A supplier calling {@code constructor}, or null when it is not accessible from here. */
  @SuppressWarnings("unchecked")
  static Supplier<Object> constructor(Constructor<?> constructor) {
    try {
      MethodHandle target = MethodHandles.lookup().unreflectConstructor(constructor);
      return (Supplier<Object>)
          implement(
              Supplier.class,
              "get",
              MethodType.methodType(Object.class),
              target,
              MethodType.methodType(constructor.getDeclaringClass()));
    } catch (Throwable e) {
      return null; // another class loader or module: the caller keeps Jackson's way
    }
  }

  /** A function calling {@code getter} on its argument, or null when it is not accessible. */
  @SuppressWarnings("unchecked")
  static Function<Object, Object> getter(Method getter) {
    try {
      MethodHandle target = MethodHandles.lookup().unreflect(getter);
      return (Function<Object, Object>)
          implement(
              Function.class,
              "apply",
              MethodType.methodType(Object.class, Object.class),
              target,
              MethodType.methodType(getter.getReturnType(), getter.getDeclaringClass()));
    } catch (Throwable e) {
      return null; // another class loader or module: the caller keeps Jackson's way
    }
  }

  /**
   * A consumer calling the one-argument {@code setter} on its first argument with its second, or
   * null when it is not accessible.
   */
  @SuppressWarnings("unchecked")
  static BiConsumer<Object, Object> setter(Method setter) {
    try {
      MethodHandle target = MethodHandles.lookup().unreflect(setter);
      return (BiConsumer<Object, Object>)
          implement(
              BiConsumer.class,
              "accept",
              MethodType.methodType(void.class, Object.class, Object.class),
              target,
              MethodType.methodType(
                  void.class, setter.getDeclaringClass(), setter.getParameterTypes()[0]));
    } catch (Throwable e) {
      return null; // another class loader or module: the caller keeps Jackson's way
    }
  }

  private static Object implement(
      Class<?> type, String method, MethodType erased, MethodHandle target, MethodType actual)
      throws Throwable {
    CallSite site =
        LambdaMetafactory.metafactory(
            MethodHandles.lookup(), method, MethodType.methodType(type), erased, target, actual);
    return site.getTarget().invoke();
  }
}
