package io.jdra.runtime.client;

import java.lang.invoke.LambdaMetafactory;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.function.Supplier;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.ValueInstantiators;
import tools.jackson.databind.deser.std.StdValueInstantiator;
import tools.jackson.databind.introspect.AnnotatedConstructor;
import tools.jackson.databind.module.SimpleModule;

/**
 * A Jackson module that creates fabric8 model objects with a compiled call of their public no-arg
 * constructor instead of Jackson's method handle.
 *
 * <p>Jackson's instantiator calls the default constructor through a method handle held in a field:
 * never inlined, it goes through {@code Invokers.checkCustomized} and ends in {@code
 * DirectMethodHandle.allocateInstance} (an allocation outside the compiled code's fast path), ~10 %
 * of the informer threads' CPU in the steady-state bench. Here the constructor is wrapped in a
 * {@link Supplier} made by {@link LambdaMetafactory}, whose class calls it as {@code new} does.
 * Only Jackson's standard instantiator of a public class of fabric8's model ({@code
 * io.fabric8.kubernetes.api.model}) with a public no-arg constructor is replaced, and everything
 * but the default creation (creators with arguments, delegates, errors) stays the standard one's.
 */
final class DirectCreators extends SimpleModule {
  private static final String MODEL = "io.fabric8.kubernetes.api.model.";

  DirectCreators() {
    super("jdra-direct-creators");
  }

  @Override
  public void setupModule(SetupContext context) {
    super.setupModule(context);
    context.addValueInstantiators(
        new ValueInstantiators.Base() {
          @Override
          public ValueInstantiator modifyValueInstantiator(
              DeserializationConfig config,
              BeanDescription.Supplier beanDesc,
              ValueInstantiator defaultInstantiator) {
            return direct(defaultInstantiator);
          }
        });
  }

  /** {@code i} with its default creation compiled, where that is allowed; else {@code i}. */
  static ValueInstantiator direct(ValueInstantiator i) {
    if (i.getClass() != StdValueInstantiator.class
        || !(i.getDefaultCreator() instanceof AnnotatedConstructor c)
        || c.getParameterCount() != 0) {
      return i;
    }
    Constructor<?> constructor = c.getAnnotated();
    Class<?> type = constructor.getDeclaringClass();
    if (!type.getName().startsWith(MODEL)
        || !Modifier.isPublic(type.getModifiers())
        || !Modifier.isPublic(constructor.getModifiers())
        || Modifier.isAbstract(type.getModifiers())) {
      return i;
    }
    Supplier<Object> create = CompiledCalls.constructor(constructor);
    return create == null ? i : new Direct((StdValueInstantiator) i, create);
  }

  /** Jackson's standard instantiator with the default creation through a compiled supplier. */
  static final class Direct extends StdValueInstantiator {
    private final Supplier<Object> create;

    Direct(StdValueInstantiator standard, Supplier<Object> create) {
      super(standard);
      this.create = create;
    }

    /** What the standard instantiator does with its constructor, which this calls directly. */
    @Override
    public Object createUsingDefault(DeserializationContext ctxt) {
      try {
        return create.get();
      } catch (Exception e) {
        return ctxt.handleInstantiationProblem(_valueClass, null, rewrapCtorProblem(ctxt, e));
      }
    }
  }
}
